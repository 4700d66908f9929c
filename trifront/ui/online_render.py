"""The online match's pieces of the page (element trees, pure like render.py): the menu rows
(room word, signaling: our relay or Nostr, relay address, invitation link), the lobby, the
connection banner with the claim-win countdown, and the fairness verdict at game end.

Test hooks: ``#opt-kind-online``, ``#online-room``, ``#opt-signal-relay``,
``#opt-signal-nostr``, ``#online-relay``, ``#share-link``,
``#screen-lobby``, ``#net-status[data-net][data-role]``, ``#btn-claim-win``,
``#btn-online-leave``, ``#fairness[data-fair="1|0|pending"]``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from trifront.net.signaling import ROOM_WORD_MAX
from trifront.ui.html import El, h
from trifront.ui.i18n import busy_text, engine_text, t
from trifront.ui.render import button

if TYPE_CHECKING:  # the match's code loads when a match starts, not with the menu
    from trifront.net.match import MatchStatus


def share_url(page_url: str, room: str, relay: str = "", signal: str = "") -> str:
    from urllib.parse import quote  # here, not at import: ~0.3 s of the page's start-up
    url = f"{page_url}?room={quote(room.strip(), safe='')}"
    url += f"&signal={quote(signal, safe='')}" if signal else ""
    return url + (f"&relay={quote(relay.strip(), safe='')}" if relay.strip() else "")


def watch_url(page_url: str, room: str, relay: str = "", signal: str = "") -> str:
    """A spectator's link to a room's game (``?watch=WORD``; ``signal`` as an invitation
    names it: only when it is not the page's default)."""
    from urllib.parse import quote
    url = f"{page_url}?watch={quote(room.strip(), safe='')}"
    url += f"&signal={quote(signal, safe='')}" if signal else ""
    return url + (f"&relay={quote(relay.strip(), safe='')}" if relay.strip() else "")


def _signal_seg(opts: dict, value: str) -> El:
    on = opts.get("signal", "relay") == value
    return h("button", h("span", t(f"online.signal.{value}"), cls="tf-seg-label"),
             h("span", t(f"online.signal.{value}_sub"), cls="tf-seg-sub"),
             cls=["tf-seg", "tf-on" if on else ""], type="button", id=f"opt-signal-{value}",
             aria_pressed="true" if on else "false", tabindex=None if on else "-1",
             data={"act": "menu-set", "key": "signal", "value": value})


def link_el(url: str, id: str) -> El:
    """A link that may wrap only after "/", "?", "&", "=" or "%2F" (a <wbr> there), never
    inside a piece (each one unbreakable: a room word's hyphens would otherwise break it),
    so that the room word reads whole on a phone."""
    children: list = []
    for part in re.split(r"(?<=[/?&=])|(?<=%2F)", url):     # %2F: a relay's address
        if part:
            children += [h("span", part, cls="tf-nowrap"), h("wbr")]
    return h("a", children[:-1], href=url, id=id, cls="tf-link")


def copy_button(url: str, id: str, share: bool = False) -> El:
    """Copy a link (``share``: the browser has a share sheet, navigator.share, which offers
    the link to another app; the page copies it when the sheet is not there or refused).
    The page confirms on the button itself ("Copied ✓", App.copied)."""
    return button(t("online.share_btn" if share else "online.copy"),
                  "share-link" if share else "copy-link", id=id,
                  cls="tf-btn-ghost tf-btn-small tf-copy",
                  data={"text": url, "title": t("online.share_title"), "copied": id})


def link_row(label: str, url: str, link_id: str, button_id: str, share: bool = False) -> El:
    return h("div", h("p", label, link_el(url, link_id), cls="tf-sub tf-share"),
             copy_button(url, button_id, share), cls="tf-link-row")


def menu_rows(opts: dict, page_url: str = "", default_relay: str = "",
              default_signal: str = "relay", share: bool = False) -> list[El]:
    """The room word (with "Make one up"), the invitation (copy or share), and the
    connection settings (how the pages find each other, the relay's address), folded
    under one button (``opts["conn"] == "1"``: open) since most players never change
    them."""
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
    open_ = opts.get("conn") == "1"
    signal_name = t(f"online.signal.{opts.get('signal', 'relay')}")
    rows = [
        h("div", h("h3", t("online.room")),
          h("div",
            h("input", id="online-room", cls="tf-input", type="text", value=room,
              placeholder=t("online.room_eg"), maxlength=str(ROOM_WORD_MAX), autocomplete="off",
              spellcheck="false", aria_label=t("online.room"), data={"input": "room"}),
            button(t("online.make_word"), "room-word", id="btn-room-word",
                   cls="tf-btn-ghost", title=t("online.make_word_title")),
            cls="tf-room-field"),
          h("p", t("online.room_help"), cls="tf-sub"),
          cls="tf-menu-row"),
    ]
    if room.strip() and page_url:
        signal = opts.get("signal", "") if opts.get("signal") != default_signal else ""
        link = share_url(page_url, room, "" if nostr else relay, signal)
        rows.append(link_row(t("online.invite"), link, "share-link", "btn-copy-invite", share))
    rows.append(h("div",
                  h("button", h("span", t("online.conn"), cls="tf-btn-label"),
                    h("span", " · " + signal_name, cls="tf-conn-now"), type="button",
                    id="btn-conn", cls="tf-btn tf-btn-ghost tf-btn-small tf-conn",
                    aria_expanded="true" if open_ else "false", aria_controls="conn-settings",
                    data={"act": "menu-set", "key": "conn", "value": "0" if open_ else "1"}),
                  h("div", h("div", h("h3", t("online.signal")),
                             h("div", _signal_seg(opts, "relay"), _signal_seg(opts, "nostr"),
                               cls="tf-segs", role="group", aria_label=t("online.signal")),
                             cls="tf-menu-row"),
                    relay_row, id="conn-settings", cls="tf-conn-body") if open_ else None,
                  cls="tf-menu-row tf-conn-row"))
    return rows


#: net states with a fixed text, keys "online.net.<state>"
NET_TEXT = ("relay", "connecting", "connected", "problem", "full", "expired", "twohosts",
            "closed", "otherversion")


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
    if net == "closed" and getattr(st, "claimed", False):
        return t("online.net.claimed")   # this page left, but as the winner, not a quitter
    if net == "error":
        return t("online.net.error", detail=st.detail or st.relay)
    if net == "refused":
        return t("online.net.refused", detail=st.detail)
    return t(f"online.net.{net}") if net in NET_TEXT else net


def banner(st: MatchStatus) -> El:
    """The connection line shown above every online screen."""
    claim = st.claim_in
    parts = [h("span", net_text(st), cls="tf-net-text")]
    if st.net == "connected" and st.path in ("direct", "relay", "nostr"):
        parts.append(h("span", t(f"online.path.{st.path}"), cls=["tf-net-path", f"tf-net-path-{st.path}"],
                       title=t(f"online.path.{st.path}_title")))
    if st.net == "connected" and st.role:
        parts.append(h("span", t("online.you_host") if st.role == "host"
                       else t("online.they_host"), cls="tf-net-role"))
    if claim is not None and (st.net != "connected" or st.time_up):
        if claim > 0:
            parts.append(h("span", t("online.claim_in", n=int(claim + 0.999)),
                           cls="tf-net-claim", id="claim-countdown"))
        else:
            parts.append(h("span", t("online.time_up" if st.time_up else "online.opp_left"),
                           cls="tf-net-claim"))
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
                 watchable: bool = False, share: bool = False) -> El:
    """``watchable``: the page offers the watch link (a match of this page; over our relay or
    Nostr alike); ``share``: the browser has a share sheet for the invitation (copy_button)."""
    busy = st.busy
    if busy:
        title, sub = t("online.busy"), busy_text(busy)
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
    # spectators come through our relay or the Nostr relays (net/watch.py, nostr_watch.py)
    watch = (watch_url(page_url, st.room, "" if signal == "nostr" else st.relay, signal)
             if link and watchable else "")
    return h("section",
             h("div", h("div", cls="tf-spinner tf-spinner-big") if not ended else None,
               h("h2", title), h("p", sub, cls="tf-sub") if sub else None,
               h("p", t("online.room_is"), h("b", st.room), cls="tf-note"),
               link_row(t("online.invite"), link, "share-link", "btn-copy-invite", share)
               if link else None,
               link_row(t("online.watch_link"), watch, "watch-link", "btn-copy-watch")
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
    """At game over: this page's own audit of the game (sealed.audit)."""
    report = st.report
    if st.claimed:
        return h("div", h("p", t("fair.sealed_claimed"), cls="tf-sub"),
                 id="fairness", cls="tf-fairness", data={"fair": "pending"})
    if report is None:
        return h("div", h("p", t("fair.checking"), cls="tf-sub"),
                 id="fairness", cls="tf-fairness", data={"fair": "pending"})
    items = [h("li", ("✓ " if ok else "✗ ") + check_name(name)
               + (f" — {engine_text(detail)}" if not ok and detail else ""),
               cls="tf-ok" if ok else "tf-bad")
             for name, ok, detail in report.checks]
    head = t("fair.sealed_yes") if report.fair else t("fair.no")
    return h("div", h("p", h("b", head)),
             h("details", h("summary", t("fair.what")), h("ul", items)),
             id="fairness", cls=["tf-fairness", "tf-fair" if report.fair else "tf-unfair"],
             data={"fair": "1" if report.fair else "0"})


def check_name(name: str) -> str:
    """An audit check's name (sealed.audit) in the page's language."""
    key = "fair.sealed_check." + name.replace(" ", "_")
    text = t(key)
    return name if text == key else text


# ---------------------------------------------------------- the move clock (net/clock.py).
# Test hooks: #opt-clock[data-value], #move-clock[data-side][data-left][data-running]

def clock_button(opts: dict) -> El:
    """The menu's move clock, in its corner beside the sound and language buttons: each press
    chooses the next preset (none first). Online it counts when this page hosts (the first to
    join); vs the CPU or on one device it times this page's players (ui/page_clock.py). One
    small button, not a row of choices: the menu's Start stays in sight at 1366 x 768."""
    from trifront.net.clock import PRESETS
    order = list(PRESETS)
    chosen = opts.get("clock", "none")
    chosen = chosen if chosen in order else order[0]
    after = order[(order.index(chosen) + 1) % len(order)]
    label = t("clock.button", clock=t(f"clock.{chosen}"))
    return button(label, "menu-set", id="opt-clock", cls="tf-btn-ghost tf-btn-small",
                  title=t("clock.help"), aria_label=label + " — " + t("clock.change"),
                  data={"key": "clock", "value": after, "clock": chosen})


def clock_el(st: MatchStatus) -> El | None:
    """Whose clock runs and the time left (the host's count; the guest's from it)."""
    return move_clock_el(st.clock, st.me)


def move_clock_el(c: dict | None, me: int, other: bool = True) -> El | None:
    """The move clock (net/clock.py's message ``c``) as player ``me`` reads it (render.clock_el:
    whose time runs and what is left of it; ``other``: the other player is timed too, and
    their reserve is said)."""
    from trifront.ui import model
    from trifront.ui.render import clock_el as board_clock
    shown = model.clock_shown(c, me, other)
    return None if shown is None else board_clock(shown)


# ------------------------------------------------ rematch and quick messages (net/rematch.py,
# net/quick.py). Test hooks: #rematch[data-state="choose|offered|asked|declined|gone"],
# #btn-rematch-normal, #btn-rematch-draft, #btn-rematch, #btn-rematch-decline, #btn-quick,
# #quick-menu, #quick-<id>, #btn-quick-mute, .tf-bubble[data-seat][data-say], #past-verdicts

def _mode_name(mode: str | None) -> str:
    return t(f"menu.{mode}") if mode in ("normal", "draft") else ""


def _who_chooses(st: MatchStatus, chooser: bool) -> str:
    """Who names the next game's mode: the loser; after a game stopped at a refused
    message (no winner), the room's host."""
    if st.refusal:
        return t("rematch.stopped_you_choose" if chooser else "rematch.stopped_they_choose")
    return t("rematch.you_choose" if chooser else "rematch.they_choose")


def rematch_box(st: MatchStatus) -> El | None:
    """At game over: offer, accept or decline a rematch (the loser names the mode)."""
    r = st.rematch
    if r is None:
        return None
    if st.net != "connected":
        return h("div", h("p", t("rematch.gone"), cls="tf-sub"), id="rematch",
                 cls="tf-rematch", data={"state": "gone"}, role="status")
    offer = ([button(t("rematch.normal"), "online-rematch", id="btn-rematch-normal",
                     cls="tf-btn-primary", data={"mode": "normal"}),
              button(t("rematch.draft"), "online-rematch", id="btn-rematch-draft",
                     cls="tf-btn-primary", data={"mode": "draft"})]
             if r.chooser else
             [button(t("rematch.accept") if r.theirs else t("rematch.offer"), "online-rematch",
                     id="btn-rematch", cls="tf-btn-primary")])
    decline = button(t("rematch.decline"), "online-norematch", id="btn-rematch-decline",
                     cls="tf-btn-ghost")
    if r.mine:
        state, lines, buttons = "offered", [
            t("rematch.waiting_mode", mode=_mode_name(r.mine)) if r.chooser
            else t("rematch.waiting")], []
    elif r.theirs:
        state = "asked"
        lines = [t("rematch.asked_mode", mode=_mode_name(r.theirs)) if not r.chooser
                 else t("rematch.asked"),
                 _who_chooses(st, True) if r.chooser else ""]
        buttons = offer + [decline]
    else:
        state = "declined" if r.declined or r.i_declined else "choose"
        lines = [t("rematch.declined") if r.declined
                 else t("rematch.i_declined") if r.i_declined else "",
                 _who_chooses(st, r.chooser)]
        buttons = offer
    lines.append(t("rematch.first_note"))
    return h("div", [h("p", x, cls="tf-sub") for x in lines if x],
             h("div", buttons, cls="tf-rematch-actions") if buttons else None,
             id="rematch", cls="tf-rematch", role="status", aria_live="polite",
             data={"state": state})


def past_verdicts(st: MatchStatus) -> El | None:
    """This page's verdicts of the room's earlier games (they stay shown)."""
    if not st.verdicts:
        return None
    parts = [t("rematch.verdict_fair" if fair else "rematch.verdict_unfair", n=i + 1)
             for i, fair in enumerate(st.verdicts)]
    return h("span", t("rematch.earlier") + ", ".join(parts), id="past-verdicts",
             cls=["tf-net-verdicts", "" if all(st.verdicts) else "tf-unfair-text"])


def quick_button(open_: bool) -> El:
    return button(t("quick.open"), "quick-toggle", id="btn-quick", title=t("quick.open_title"),
                  cls="tf-btn-ghost tf-btn-small", pressed=open_)


def quick_menu(muted: bool, ids: tuple) -> El:
    """The fixed messages (never free text) and the mute switch."""
    return h("div", [button(t(f"quick.{mid}"), "quick-say", id=f"quick-{mid}",
                            cls="tf-btn-ghost tf-btn-small", data={"say": mid}) for mid in ids],
             button(t("quick.unmute") if muted else t("quick.mute"), "quick-mute",
                    id="btn-quick-mute", cls="tf-btn-ghost tf-btn-small", pressed=muted),
             id="quick-menu", cls="tf-quick-menu", role="group", aria_label=t("quick.menu"))


def bubbles(st: MatchStatus, muted: bool) -> list[El]:
    """The quick messages shown now, each by its sender's side of the board (the
    opponent's at the top, this page's at the bottom), in this reader's language."""
    out = []
    for seat, mid in st.said:
        mine = seat == st.me
        if muted and not mine:
            continue
        text = t(f"quick.{mid}")
        out.append(h("div", text, cls=["tf-bubble", "tf-bubble-me" if mine else "tf-bubble-opp"],
                     role="status",
                     aria_label=t("quick.from_me" if mine else "quick.from_opp", text=text),
                     data={"seat": seat, "say": mid}))
    return out
