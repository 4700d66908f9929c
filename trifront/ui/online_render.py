"""The online match's pieces of the page (element trees, pure like render.py): the menu rows
(room word, relay address, invitation link), the lobby, the connection banner with the
claim-win countdown, and the fairness verdict at game end.

Test hooks: ``#opt-kind-online``, ``#online-room``, ``#online-relay``, ``#share-link``,
``#screen-lobby``, ``#net-status[data-net][data-role]``, ``#btn-claim-win``,
``#btn-online-leave``, ``#fairness[data-fair="1|0|pending|host"]``.
"""

from __future__ import annotations

from urllib.parse import quote

from trifront.ui.html import El, h
from trifront.ui.render import button


def share_url(page_url: str, room: str, relay: str = "") -> str:
    url = f"{page_url}?room={quote(room.strip(), safe='')}"
    return url + (f"&relay={quote(relay.strip(), safe='')}" if relay.strip() else "")


def menu_rows(opts: dict, page_url: str = "", default_relay: str = "") -> list[El]:
    room, relay = opts.get("room", ""), opts.get("relay", "")
    rows = [
        h("div", h("h3", "Room word"),
          h("input", id="online-room", cls="tf-input", type="text", value=room,
            placeholder="e.g. blue-fox-42", maxlength="64", autocomplete="off",
            spellcheck="false", aria_label="Room word", data={"input": "room"}),
          h("p", "Both players type the same word (or open the same link). The first to join "
                 "hosts the game; who starts is drawn at random from both players' secrets.",
            cls="tf-sub"),
          cls="tf-menu-row"),
        h("div", h("h3", "Relay"),
          h("input", id="online-relay", cls="tf-input", type="text", value=relay,
            placeholder=default_relay or "ws://host:8765/", autocomplete="off",
            spellcheck="false", aria_label="Relay address", data={"input": "relay"}),
          h("p", "Only introduces the two browsers; the game itself goes directly between "
                 "them. Leave empty for this site's relay.", cls="tf-sub"),
          cls="tf-menu-row"),
    ]
    if room.strip() and page_url:
        link = share_url(page_url, room, relay)
        rows.append(h("p", "Invite: ", h("a", link, href=link, id="share-link"),
                      cls="tf-sub tf-share"))
    return rows


NET_TEXT = {
    "relay": "Connecting to the relay…",
    "connecting": "Opponent found — connecting…",
    "connected": "Connected",
    "full": "This room already has two players. Choose another room word.",
    "expired": "The room was idle too long and closed. Join again to continue.",
}


def net_text(match) -> str:
    net = match.net
    if net == "waiting":
        if match.started:
            return "Your opponent left — waiting for them to come back…"
        return f"Waiting for an opponent to join room “{match.room}”…"
    if net == "reconnecting":
        return "Reconnecting… the connection to your opponent dropped."
    if net == "error":
        return f"Cannot reach the relay ({match.detail or match.relay})."
    return NET_TEXT.get(net, net)


def banner(match) -> El:
    """The connection line shown above every online screen."""
    claim = match.claim_in()
    parts = [h("span", net_text(match), cls="tf-net-text")]
    if match.net == "connected" and match.role:
        parts.append(h("span", " · you host this game" if match.role == "host"
                       else " · the other player hosts this game", cls="tf-net-role"))
    if claim is not None and match.net != "connected":
        if claim > 0:
            parts.append(h("span", f" You may claim the win in {int(claim + 0.999)} s.",
                           cls="tf-net-claim", id="claim-countdown"))
        else:
            parts.append(h("span", " Your opponent has left: ", cls="tf-net-claim"))
            parts.append(button("Claim the win", "claim-win", id="btn-claim-win",
                                cls="tf-btn-primary tf-btn-small"))
    parts.append(button("Leave", "online-leave", id="btn-online-leave",
                        cls="tf-btn-ghost tf-btn-small",
                        title="Leave this online game (you can come back with the same room word)"))
    return h("div", parts, id="net-status", role="status", aria_live="polite",
             cls=["tf-net", f"tf-net-{match.net}"],
             data={"net": match.net, "role": match.role or "",
                   "n": "" if match.n is None else match.n})


def lobby_screen(match, page_url: str = "") -> El:
    s = match.session
    busy = getattr(s, "busy", None)
    if busy:
        title, sub = "This room is in use", busy
    elif match.role is None:
        title = "Online game"
        sub = ("Share the room word (or the link) with your opponent."
               if match.net in ("waiting", "relay") else "")
    else:
        title = "Setting up the game…"
        sub = ("Drawing a fair seed from both players' secrets."
               if match.phase in ("seeding", "connecting") else "")
    link = share_url(page_url, match.room, "") if page_url else ""
    return h("section",
             h("div", h("div", cls="tf-spinner tf-spinner-big") if not busy else None,
               h("h2", title), h("p", sub, cls="tf-sub") if sub else None,
               h("p", "Room: ", h("b", match.room), cls="tf-note"),
               h("p", "Invite: ", h("a", link, href=link, id="share-link"), cls="tf-sub tf-share")
               if link else None,
               button("Back to menu", "online-leave", id="btn-lobby-menu", cls="tf-btn-ghost"),
               cls="tf-panel tf-handover"),
             id="screen-lobby", cls="tf-screen tf-screen-center",
             data={"net": match.net})


def fairness_box(match) -> El:
    """At game over: the guest's replay verdict (fairness.check_game), or the host's note."""
    s = match.session
    if match.role == "host":
        return h("div", h("p", "Your opponent's page replays the whole game with your revealed "
                               "secret to check that it was fair.", cls="tf-sub"),
                 id="fairness", cls="tf-fairness", data={"fair": "host"})
    report = getattr(s, "report", None)
    if match.claimed:
        return h("div", h("p", "The host left before the end, so its secret was never revealed: "
                               "this game cannot be checked.", cls="tf-sub"),
                 id="fairness", cls="tf-fairness", data={"fair": "pending"})
    if report is None:
        return h("div", h("p", "Checking that the game was fair…", cls="tf-sub"),
                 id="fairness", cls="tf-fairness", data={"fair": "pending"})
    items = [h("li", ("✓ " if ok else "✗ ") + name + (f" — {detail}" if not ok and detail else ""),
               cls="tf-ok" if ok else "tf-bad")
             for name, ok, detail in report.checks]
    head = ("Fair game: the seed came from both players' secrets, and replaying the record "
            "gave every position you saw." if report.fair
            else "This game was NOT fair: the host's revealed record does not match.")
    return h("div", h("p", h("b", head)),
             h("details", h("summary", "What was checked"), h("ul", items)),
             id="fairness", cls=["tf-fairness", "tf-fair" if report.fair else "tf-unfair"],
             data={"fair": "1" if report.fair else "0"})
