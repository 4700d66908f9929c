"""The online match's pieces of the page (element trees, pure like render.py): the menu rows
(room word, signaling: our relay or Nostr, relay address, invitation link), the lobby, the
connection banner with the claim-win countdown, and the fairness verdict at game end.

Test hooks: ``#opt-kind-online``, ``#online-room``, ``#opt-signal-relay``,
``#opt-signal-nostr``, ``#online-relay``, ``#share-link``,
``#screen-lobby``, ``#net-status[data-net][data-role]``, ``#btn-claim-win``,
``#btn-online-leave``, ``#fairness[data-fair="1|0|pending|host"]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trifront.net.signaling import ROOM_WORD_MAX
from trifront.ui.html import El, h
from trifront.ui.i18n import engine_text, t
from trifront.ui.render import button

if TYPE_CHECKING:  # the match's code loads when a match starts, not with the menu
    from trifront.net.match import MatchStatus


def share_url(page_url: str, room: str, relay: str = "", signal: str = "") -> str:
    from urllib.parse import quote  # here, not at import: ~0.3 s of the page's start-up
    url = f"{page_url}?room={quote(room.strip(), safe='')}"
    url += f"&signal={quote(signal, safe='')}" if signal else ""
    return url + (f"&relay={quote(relay.strip(), safe='')}" if relay.strip() else "")


def watch_url(page_url: str, room: str, relay: str = "") -> str:
    """A spectator's link to a room's game (``?watch=WORD``; our relay only)."""
    from urllib.parse import quote
    url = f"{page_url}?watch={quote(room.strip(), safe='')}"
    return url + (f"&relay={quote(relay.strip(), safe='')}" if relay.strip() else "")


def _signal_seg(opts: dict, value: str) -> El:
    on = opts.get("signal", "relay") == value
    return h("button", h("span", t(f"online.signal.{value}"), cls="tf-seg-label"),
             h("span", t(f"online.signal.{value}_sub"), cls="tf-seg-sub"),
             cls=["tf-seg", "tf-on" if on else ""], type="button", id=f"opt-signal-{value}",
             aria_pressed="true" if on else "false",
             data={"act": "menu-set", "key": "signal", "value": value})


def menu_rows(opts: dict, page_url: str = "", default_relay: str = "",
              default_signal: str = "relay") -> list[El]:
    room, relay = opts.get("room", ""), opts.get("relay", "")
    nostr = opts.get("signal") == "nostr"
    relay_row = (h("div", h("h3", t("online.relay")),
                   h("input", id="online-relay", cls="tf-input", type="text", value=relay,
                     placeholder=default_relay or "ws://host:8765/", autocomplete="off",
                     spellcheck="false", aria_label=t("online.relay_label"),
                     data={"input": "relay"}),
                   h("p", t("online.relay_help"), cls="tf-sub"),
                   cls="tf-menu-row")
                 if not nostr else h("p", t("online.nostr_help"), cls="tf-sub tf-menu-row"))
    rows = [
        h("div", h("h3", t("online.room")),
          h("input", id="online-room", cls="tf-input", type="text", value=room,
            placeholder=t("online.room_eg"), maxlength=str(ROOM_WORD_MAX), autocomplete="off",
            spellcheck="false", aria_label=t("online.room"), data={"input": "room"}),
          h("p", t("online.room_help"), cls="tf-sub"),
          cls="tf-menu-row"),
        h("div", h("h3", t("online.signal")),
          h("div", _signal_seg(opts, "relay"), _signal_seg(opts, "nostr"),
            cls="tf-segs", role="group", aria_label=t("online.signal")),
          cls="tf-menu-row"),
        relay_row,
    ]
    if room.strip() and page_url:
        signal = opts.get("signal", "") if opts.get("signal") != default_signal else ""
        link = share_url(page_url, room, "" if nostr else relay, signal)
        rows.append(h("p", t("online.invite"), h("a", link, href=link, id="share-link"),
                      cls="tf-sub tf-share"))
    return rows


#: net states with a fixed text, keys "online.net.<state>"
NET_TEXT = ("relay", "connecting", "connected", "full", "expired", "twohosts", "closed")


def net_text(st: MatchStatus) -> str:
    net = st.net
    if net == "waiting":
        if st.started:
            return t("online.net.left")
        return t("online.net.waiting", room=st.room)
    if net == "reconnecting":
        return t("online.net.reconnecting")
    if net == "relay" and st.detail == "nostr":
        return t("online.net.nostr")
    if net == "error":
        return t("online.net.error", detail=st.detail or st.relay)
    if net == "refused":
        return t("online.net.refused", detail=st.detail)
    return t(f"online.net.{net}") if net in NET_TEXT else net


def banner(st: MatchStatus) -> El:
    """The connection line shown above every online screen."""
    claim = st.claim_in
    parts = [h("span", net_text(st), cls="tf-net-text")]
    if st.net == "connected" and st.path in ("direct", "relay"):
        parts.append(h("span", t(f"online.path.{st.path}"), cls=["tf-net-path", f"tf-net-path-{st.path}"],
                       title=t(f"online.path.{st.path}_title")))
    if st.net == "connected" and st.role:
        parts.append(h("span", t("online.you_host") if st.role == "host"
                       else t("online.they_host"), cls="tf-net-role"))
    if claim is not None and st.net != "connected":
        if claim > 0:
            parts.append(h("span", t("online.claim_in", n=int(claim + 0.999)),
                           cls="tf-net-claim", id="claim-countdown"))
        else:
            parts.append(h("span", t("online.opp_left"), cls="tf-net-claim"))
            parts.append(button(t("online.claim"), "claim-win", id="btn-claim-win",
                                cls="tf-btn-primary tf-btn-small"))
    if st.watchers:
        parts.append(h("span", t("online.watchers", n=st.watchers), id="net-watchers",
                       cls="tf-net-watchers", title=t("online.watchers_title"),
                       data={"n": st.watchers}))
    parts.append(button(t("online.leave"), "online-leave", id="btn-online-leave",
                        cls="tf-btn-ghost tf-btn-small", title=t("online.leave_title")))
    return h("div", parts, id="net-status", role="status", aria_live="polite",
             cls=["tf-net", f"tf-net-{st.net}"],
             data={"net": st.net, "role": st.role or "", "n": "" if st.n is None else st.n,
                   "path": st.path or ""})


def lobby_screen(st: MatchStatus, page_url: str = "", signal: str = "",
                 watchable: bool = False) -> El:
    """``watchable``: spectators can come (our relay carries the match; Nostr does not)."""
    busy = st.busy
    if busy:
        title, sub = t("online.busy"), busy
    elif st.role is None:
        title = t("online.title")
        sub = t("online.share") if st.net in ("waiting", "relay") else ""
    else:
        title = t("online.setup")
        sub = t("online.seeding") if st.phase in ("seeding", "connecting") else ""
    # a room that is full, expired or failed waits for nothing: no spinner, no invitation
    ended = busy or st.net in ("full", "expired", "error", "refused", "closed")
    slow = not busy and st.slow_connect
    link = share_url(page_url, st.room, "", signal) if page_url and not ended else ""
    # spectators come through our relay only (trifront/net/watch.py)
    watch = watch_url(page_url, st.room, st.relay) if link and watchable else ""
    return h("section",
             h("div", h("div", cls="tf-spinner tf-spinner-big") if not ended else None,
               h("h2", title), h("p", sub, cls="tf-sub") if sub else None,
               h("p", t("online.room_is"), h("b", st.room), cls="tf-note"),
               h("p", t("online.invite"), h("a", link, href=link, id="share-link"),
                 cls="tf-sub tf-share")
               if link else None,
               h("p", t("online.watch_link"), h("a", watch, href=watch, id="watch-link"),
                 cls="tf-sub tf-share")
               if watch else None,
               h("p", t("online.slow"), id="slow-connect", cls="tf-note tf-warn", role="alert")
               if slow else None,
               h("div", button(t("online.retry"), "online-retry", id="btn-online-retry",
                               cls="tf-btn-primary") if slow else None,
                 button(t("draft.menu"), "online-leave", id="btn-lobby-menu",
                        cls="tf-btn-ghost"), cls="tf-menu-actions"),
               cls="tf-panel tf-handover"),
             id="screen-lobby", cls="tf-screen tf-screen-center",
             data={"net": st.net})


def fairness_box(st: MatchStatus) -> El:
    """At game over: the guest's replay verdict (fairness.check_game), or the host's note."""
    if st.role == "host":
        return h("div", h("p", t("fair.host"), cls="tf-sub"),
                 id="fairness", cls="tf-fairness", data={"fair": "host"})
    report = st.report
    if st.claimed:
        return h("div", h("p", t("fair.claimed"), cls="tf-sub"),
                 id="fairness", cls="tf-fairness", data={"fair": "pending"})
    if report is None:
        return h("div", h("p", t("fair.checking"), cls="tf-sub"),
                 id="fairness", cls="tf-fairness", data={"fair": "pending"})
    items = [h("li", ("✓ " if ok else "✗ ") + check_name(name)
               + (f" — {engine_text(detail)}" if not ok and detail else ""),
               cls="tf-ok" if ok else "tf-bad")
             for name, ok, detail in report.checks]
    head = t("fair.yes") if report.fair else t("fair.no")
    return h("div", h("p", h("b", head)),
             h("details", h("summary", t("fair.what")), h("ul", items)),
             id="fairness", cls=["tf-fairness", "tf-fair" if report.fair else "tf-unfair"],
             data={"fair": "1" if report.fair else "0"})


def check_name(name: str) -> str:
    """A fairness check's name (trifront/net/fairness.py) in the page's language."""
    key = "fair.check." + name.replace(" ", "_")
    text = t(key)
    return name if text == key else text
