"""Build each screen as an element tree (html.El) from the view model (model.py).

Pure Python (tested on CPython in tests/ui/); dom.py mounts the tree with pyscript.web.
Every clickable element carries ``data-act`` (what the controller does) and its parameters
as data attributes; disabled choices are real ``disabled`` buttons with the reason as the
tooltip and, where a choice is in focus, inline. Every text comes from the catalogue
(i18n.py, ``t(key)``) in the page's language.

Stable hooks for tests: ``#screen-menu|draft|reveal|handover|board|round|over|replay``,
``#btn-pass|up|down|discard|cancel|back|resign|no-target``, ``#btn-lane-{0,1,2}``,
``[data-card-id]`` with ``data-owner``/``data-zone``, ``[data-lane]`` on lanes
(docs/UI.md lists them all).
"""

from __future__ import annotations

import hashlib
import json

from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui.html import El, h
from trifront.ui.i18n import t

GROUP_CLASS = {"A": "tf-g-a", "B": "tf-g-b", "C": "tf-g-c", "D": "tf-g-d"}


# ---------------------------------------------------------------------------------------------
# Pieces


def button(label, act: str | None = None, *, id: str | None = None, enabled: bool = True,
           reason: str = "", cls: str | list = "", data: dict | None = None,
           inline_reason: bool = False, title: str | None = None,
           aria_label: str | None = None, pressed: bool | None = None) -> El:
    """A button; disabled ones keep their reason as the tooltip (and inline if asked)."""
    classes = ["tf-btn"] + (cls.split() if isinstance(cls, str) else list(cls))
    children = [h("span", label, cls="tf-btn-label")]
    if not enabled and reason and inline_reason:
        children.append(h("span", reason, cls="tf-btn-why"))
    return h("button", children, cls=classes, id=id, type="button",
             disabled=not enabled, title=(reason if not enabled and reason else title),
             aria_disabled="true" if not enabled else None, aria_label=aria_label,
             aria_pressed=None if pressed is None else ("true" if pressed else "false"),
             data={"act": act, **(data or {})})


def card_el(face: m.CardFace, *, size: str = "sm", zone: str = "", act: str | None = None,
            selected: bool = False, dim: bool = False, extra_cls: tuple = (),
            data: dict | None = None, fresh: bool = False, last: bool = False,
            ribbon: str = "") -> El:
    """One card: a back, or a face with rank, power (changed power marked), effect.

    ``fresh``: just played (animated once); ``last``: the card of the last action (marked);
    ``ribbon``: a short note hanging below its bottom edge (the hint's lane and face).
    """
    base_cls = ["tf-card", f"tf-card--{size}", *extra_cls,
                "tf-fresh" if fresh else "", f"tf-anim-{fresh}" if isinstance(fresh, str) else "",
                "tf-lastmove" if last else ""]
    attrs = {"owner": face.owner, "zone": zone or None, "act": act,
             "face": face.face, "last": "1" if last else None, **(data or {})}
    label = face.title.replace("\n", ". ")
    if last:
        label = f"{t('log.last_mark')}: {label}"
    if face.hidden:
        attrs["hidden-card"] = "1"
        if face.id is not None:
            attrs["card-id"] = face.id
        clickable = act is not None
        return h("div", h("span", t("card.facedown"), cls="tf-back-tag")
                 if face.face == "down" else None,
                 cls=base_cls + ["tf-back", "tf-clickable" if clickable else ""],
                 title=face.title, data=attrs,
                 role="button" if clickable else "img", aria_label=label,
                 tabindex="0" if clickable else None)
    attrs["card-id"] = face.id
    attrs["effect"] = face.effect or "none"
    el_id = f"card-{face.owner}-{face.id}" if zone else None   # keeps the focus across redraws
    cls = base_cls + [
        GROUP_CLASS.get(face.group or "", "tf-g-none"),
        "tf-soldier" if face.effect == "soldier" else "",
        "tf-facedown" if face.face_down else "",
        "tf-known" if face.known else "",
        "tf-exposed" if face.exposed else "",
        "tf-selected" if selected else "",
        "tf-dim" if dim else "",
        "tf-clickable" if act else "",
        "tf-long-name" if len(face.name) > 9 else "",   # may take two lines on a small card
        # a long effect text is set smaller so that it reads whole (CJK counts double)
        "tf-text-long" if sum(2 if ord(ch) > 0x2E80 else 1 for ch in face.short) > 30 else "",
        # a word of 9+ letters ("Commander") is set smaller, never broken mid-word
        "tf-long-word" if max((len(w) for w in face.name.split()), default=0) >= 9 else "",
    ]
    power_cls = ["tf-power", f"tf-power-{face.trend}" if face.trend else ""]
    power = h("div", h("span", str(face.power) if face.power is not None else "?",
                       cls="tf-power-value"),
              h("span", t("card.base", n=face.base), cls="tf-power-base") if face.trend else None,
              cls=power_cls)
    rank = h("div", h("span", face.rank or t("card.rank_short"), cls="tf-rank-num"),
             h("span", face.group or "", cls="tf-rank-group") if face.group else None,
             cls="tf-rank")
    tags = []
    if face.face_down:
        tags.append(h("span", t("card.facedown"), cls="tf-tag tf-tag-down"))
    if face.known:
        tags.append(h("span", t("card.known"), cls="tf-tag tf-tag-known"))
    if face.exposed:
        tags.append(h("span", t("card.exposed"), cls="tf-tag tf-tag-exposed"))
    # the accessible name is the card's own text (rank, power, name, text, tags); the title
    # (everything about it) is its description
    return h("div", h("span", t("log.last_mark") + ":", cls="tf-sr-only") if last else None,
             h("span", ribbon, cls="tf-hint-ribbon") if ribbon else None,
             rank, power,
             h("div", face.name, cls="tf-card-name"),
             h("div", face.short, cls="tf-card-text") if face.short else None,
             h("div", tags, cls="tf-tags") if tags else None,
             cls=cls, title=face.title, data=attrs, id=el_id,
             role="button" if act else None,
             aria_pressed=("true" if selected else "false") if act == "select" else None,
             tabindex="0" if act else None)


def mark_copied(tree: El, button_id: str) -> None:
    """The copy button ``button_id`` says "Copied ✓" (its click copied the link)."""
    el = tree.find("#" + button_id)
    if el is not None:
        el.children = [h("span", t("online.copied"), cls="tf-btn-label")]
        el.add_class("tf-copied")


def autofocus(tree: El | None, test, force: bool = False) -> El | None:
    """Mark the first element of ``tree`` for which ``test(el)`` holds with data-autofocus:
    dom.py focuses it after a redraw when the focused element is gone (keyboard play), or
    always when ``force`` (the next step of a play: the focus moves on to its choices)."""
    if tree is None:
        return None
    for el in tree.iter():
        if test(el):
            el.attrs["data-autofocus"] = "force" if force else "1"
            break
    return tree


def enabled_button(el: El) -> bool:
    return el.tag == "button" and not el.attrs.get("disabled")


def modal(id: str, title: str, *body, actions: list | None = None, wide: bool = False,
          focus: int = -1) -> El:
    """A dialog; the keyboard focus starts on ``actions[focus]`` (a confirmation of something
    that cannot be taken back starts on its safe choice, so Enter twice does not do it)."""
    actions = [a for a in actions or [] if a is not None]
    if actions:
        autofocus(actions[focus], enabled_button)
    return h("div",
             h("div",
               h("div", h("h2", title, id=f"{id}-title"),
                 autofocus(button("×", "close-modal", cls="tf-btn-icon", id=f"{id}-close",
                                  title=t("modal.close"), aria_label=t("modal.close")),
                           lambda el: not actions),
                 cls="tf-modal-head"),
               h("div", *body, cls="tf-modal-body"),
               h("div", actions or [], cls="tf-modal-actions") if actions else None,
               cls=["tf-modal", "tf-modal-wide" if wide else ""], role="dialog",
               aria_modal="true", aria_labelledby=f"{id}-title"),
             cls="tf-modal-backdrop", id=id, data={"act": "backdrop"})


def effect_chip(group: str, ranks: str, name: str) -> El:
    return h("span", h("b", group), f" {name}", cls=["tf-chip", GROUP_CLASS[group]],
             title=t("board.group_chip", g=group, ranks=ranks, name=name))


def lang_button(id: str = "btn-lang", cls: str = "tf-btn-ghost") -> El:
    """Switches the page between English and Japanese. Like every language switch it speaks
    the other language ("日本語" on the English page), marked with that ``lang``."""
    other = "ja" if i18n.get_lang() == "en" else "en"
    mine = i18n.get_lang()
    i18n.set_lang(other)
    label, title = t("lang.switch"), t("lang.switch_title")
    i18n.set_lang(mine)
    return h("button", h("span", label, cls="tf-btn-label"),
             cls=["tf-btn", *cls.split()], type="button", id=id, title=title, lang=other,
             data={"act": "lang", "lang": other})


# ---------------------------------------------------------------------------------------------
# Menu


# ---------------------------------------------------------------------------------------------
# Draft


def error_screen(text: str) -> El:
    return h("section", h("div", h("h2", t("error.title")), h("p", text, cls="tf-sub"),
                          button(t("error.menu"), "menu", id="btn-error-menu",
                                 cls="tf-btn-primary"),
                          cls="tf-panel tf-handover"),
             id="screen-error", cls="tf-screen tf-screen-center")


# ---------------------------------------------------------------------------------------------
# Hand-over (local)


# ---------------------------------------------------------------------------------------------
# Board


def clock_el(c: m.ClockShown) -> El:
    """The move clock beside the player it times: the move's time large, the reserve after
    it, the other player's reserve when both are timed; in its last 10 s it grows and turns
    red (``tf-clock-low``). Test hooks: #move-clock[data-side][data-left][data-running]."""
    return h("div",
             h("span", t("clock.who_me" if c.mine else "clock.who_them"), cls="tf-clock-who"),
             h("b", c.move, cls="tf-clock-move"),
             h("span", t("clock.plus", reserve=c.reserve), cls="tf-clock-res"),
             h("span", "· " + t("clock.other_them" if c.mine else "clock.other_me",
                                reserve=c.other), cls="tf-clock-other") if c.other else None,
             h("span", t("clock.stopped").strip(), cls="tf-clock-stopped")
             if not c.running else None,
             id="move-clock", role="timer", title=t("clock.title"),
             cls=["tf-clock", "tf-clock-low" if c.low else "", "tf-clock-mine" if c.mine else "",
                  "" if c.running else "tf-clock-paused"],
             data={"side": c.side, "left": c.left, "running": "1" if c.running else "0"})


def player_strip(view: dict, p: int, names: dict[int, str], *, mine: bool, sel: m.Selection,
                  targets: dict, readonly: bool = False, hint: m.HintShown | None = None,
                  clock: m.ClockShown | None = None) -> El:
    """One player's name, piles and hand. ``readonly``: a replay (nothing to choose).
    ``hint``: a ready hint; its card (and a target in this hand) is highlighted. ``clock``:
    the move clock, when it times this player."""
    hand = view["hands"][p]
    passed = view["passed"][p]
    cards = []
    for c in hand:
        face = m.card_face(c)
        if readonly:   # a replay; ``hint``: a review's better move ("Show")
            hinted = hint is not None and mine and hint.card == face.id
            cards.append(card_el(face, size="md" if mine else "xs" if face.hidden else "sm",
                                 zone="hand", act=None if face.hidden else "inspect",
                                 extra_cls=("tf-hinted",) if hinted else (),
                                 ribbon=hint_ribbon(hint) if hinted else ""))
        elif mine:
            status = m.hand_card_status(view, face.id)
            key = ("hand", p, face.id)
            act = "target" if key in targets else "select"
            hinted = hint is not None and hint.card == face.id
            extra = (("tf-targetable",) if key in targets else ()) + (
                ("tf-hinted",) if hinted else ()) + (
                ("tf-hint-target",) if hint is not None and hint.target == key else ())
            cards.append(card_el(face, size="md", zone="hand", act=act,
                                 selected=sel.card == face.id, dim=not status.enabled,
                                 extra_cls=extra, ribbon=hint_ribbon(hint) if hinted else "",
                                 data={"target-key": targets.get(key)} if key in targets else None))
        else:
            cards.append(card_el(face, size="xs" if face.hidden else "sm", zone="hand",
                                 act=None if face.hidden else "inspect"))
    deck = view["decks"][p]
    disc = view["discards"][p]
    turn = view.get("to_move") == p and not view.get("over")
    who = "me" if mine else "opp"
    info = h("div",
             h("div", h("h2", names[p], cls="tf-pname"),
               h("span", t("board.passed"), cls="tf-badge tf-badge-pass") if passed else None,
               h("span", t("board.to_move"), cls="tf-badge tf-badge-turn") if turn else None,
               cls="tf-pname-row"),
             clock_el(clock) if clock is not None and clock.side == p else None,
             h("div",
               h("span", h("span", cls="tf-mini-deck", aria_hidden="true"),
                 t("board.deck", n=deck), cls="tf-pile",
                 title=t("board.deck_title", n=deck), id=f"deck-{who}"),
               h("button", h("span", cls="tf-mini-discard", aria_hidden="true"),
                 t("board.discard", n=len(disc)),
                 cls="tf-pile tf-pile-btn", type="button", id=f"discard-{who}",
                 title=t("board.discard_title"),
                 data={"act": "show-discard", "player": p}),
               h("span", t("board.hand", n=len(hand)), cls="tf-pile", id=f"handsize-{who}"),
               cls="tf-piles"),
             cls="tf-pinfo")
    return h("div", info,
             h("div", cards or [h("span", t("board.no_cards"), cls="tf-empty")],
               cls=["tf-hand", "tf-hand-me" if mine else "tf-hand-opp"],
               id="hand-me" if mine else "hand-opp", role="group",
               aria_label=i18n.t_of("board.hand_of", names[p])),
             cls=["tf-player", "tf-player-me" if mine else "tf-player-opp",
                  "tf-passed" if passed else ""], data={"player": p})


def lane_el(lane: m.LaneModel, view: dict, names: dict[int, str], *, lane_step: bool,
             lane_choice: m.Choice | None, sel_lane: int | None, targets: dict,
             fresh: set, result: str = "", result_winner: int | None = None,
             last: tuple | None = None, hint: m.HintShown | None = None,
             caption: tuple | None = None, hint_mark: str = "") -> El:
    """One lane; ``caption``: (short text, log line) of the opponent's move just made in it,
    shown over the lane's name (#move-caption), next to the card, so that nobody has to
    look for it in the log; ``hint_mark``: the tag of the lane ``hint`` plays into ("Hint"
    unless said: the review's better move is not a hint)."""
    me = view["me"]
    opp = m.other(me)

    def side(cards, owner):
        els = []
        for pos, f in enumerate(cards):
            key = ("board", owner, lane.index, pos)
            is_t = key in targets
            if lane_step:
                act = "lane"
            elif is_t:
                act = "target"
            else:
                act = None if f.hidden else "inspect"
            hint_t = hint is not None and hint.target == key
            els.append(card_el(f, size="sm", zone="board", act=act,
                               extra_cls=(("tf-targetable",) if is_t else ()) + (
                                   ("tf-hint-target",) if hint_t else ()),
                               data={"target-key": targets[key], "lane": lane.index}
                               if is_t else {"lane": lane.index} if act == "lane" else None,
                               fresh=fresh.get(key, False) if isinstance(fresh, dict)
                               else key in fresh, last=key == last))
        return els

    mid_bits = [h("span", lane.title, cls="tf-lane-title")]
    hinted = hint is not None and hint.kind == "play" and hint.lane == lane.index
    if hinted:
        mid_bits.append(h("span", hint_mark or t("hint.mark"), cls="tf-hint-mark"))
    if lane.by_count:
        mid_bits.append(h("span", t("lane.by_count"), cls="tf-bycount",
                          title=t("lane.by_count_title")))
    seen = "+" in lane.their_total
    totals = h("div",
               h("span", lane.their_total, cls="tf-total tf-total-opp",
                 title=t("lane.total_seen" if seen else "lane.total_of", name=names[opp]),
                 data={"lane-total": "opp"}),
               h("span", t("lane.vs"), cls="tf-vs"),
               h("span", lane.my_total, cls="tf-total tf-total-me",
                 title=i18n.t_of("lane.total_of", names[me]), data={"lane-total": "me"}),
               cls="tf-totals")
    pickable = lane_step and lane_choice is not None
    cls = ["tf-lane",
           "tf-lane-pick" if pickable and lane_choice.enabled else "",
           "tf-lane-blocked" if pickable and not lane_choice.enabled else "",
           "tf-lane-chosen" if sel_lane == lane.index else "",
           "tf-lane-hint" if hinted else "",
           "tf-lane-bycount" if lane.by_count else "",
           "tf-lane-oppmove" if caption else "",
           f"tf-lead-{'me' if lane.leader == me else 'opp'}" if lane.leader is not None else ""]
    title = None
    if pickable:
        title = (t("lane.play_into", lane=lane.title) if lane_choice.enabled
                 else lane_choice.reason)
    result_el = None
    if result:
        result_el = h("div", result, cls=["tf-lane-result",
                                          "tf-res-me" if result_winner == me else
                                          "tf-res-opp" if result_winner == opp else "tf-res-draw"])
    label = t("lane.label", lane=lane.title, opp=names[opp], their=lane.their_total,
              me=names[me], mine=lane.my_total) + (f" {result}" if result else "")
    head = h("div", mid_bits, cls="tf-lane-name")
    if caption:
        # the caption in a box as tall as the name, so that it ends where the name does and
        # grows upwards, whatever the name's size on this screen: never over the totals
        head = h("div", head, h("div", caption[0], cls="tf-move-cap", id="move-caption",
                                title=caption[1]), cls="tf-lane-head")
    return h("div",
             h("div", side(lane.theirs, opp),
               cls=["tf-side tf-side-opp", "tf-side-crowded" if len(lane.theirs) > 3 else ""]),
             h("div", head, totals, result_el, cls="tf-lane-mid"),
             h("div", side(lane.mine, me),
               cls=["tf-side tf-side-me", "tf-side-crowded" if len(lane.mine) > 3 else ""]),
             cls=cls, title=title, role="group", aria_label=label,
             data={"lane": lane.index, "hint": "1" if hinted else None,
                   "act": "lane" if pickable and lane_choice.enabled else None,
                   "by-count": "1" if lane.by_count else None})


def hint_ribbon(hint: m.HintShown) -> str:
    if hint.kind == "discard":
        return t("hint.ribbon_discard")
    return t(f"hint.ribbon_{'down' if hint.face == 'down' else 'up'}",
             lane=m.lane_title(hint.lane) if hint.lane in m.LANES else "?")


def log_items(view: dict, names: dict[int, str], limit: int = 12) -> list[El]:
    """The log, newest first: round headers and one line per action (R7.1 in the view)."""
    me = view["me"]
    lines = m.numbered_history(view, names, limit)
    out = []
    newest = True
    for p, n, text in lines:
        cls = ["tf-log-round" if p is None else "tf-log-me" if p == me else "tf-log-opp"]
        if p is not None and newest:
            cls.append("tf-log-last")
            newest = False
        out.append(h("li", log_number(n), text, cls=cls, data={"n": n}))
    return out


def log_number(n: int | None) -> El | None:
    """A log line's move number, as the replay and the review number moves."""
    return h("span", t("log.n", n=n), cls="tf-log-n") if n is not None else None


def topbar(view: dict, names: dict[int, str], thinking: bool, *, can_export: bool = False,
           can_leave: bool = False, actions: list | None = None, turn_box: bool = True) -> El:
    me, opp = view["me"], m.other(view["me"])
    s = view["scores"]
    turn = m.turn_text(view, names, thinking)
    mine = m.my_turn(view)
    if actions is None:
        actions = [
            lang_button(cls="tf-btn-ghost tf-btn-small"),
            button(t("board.export"), "export", id="btn-export",
                   cls="tf-btn-ghost tf-btn-small", title=t("board.export_title"))
            if can_export else None,
            button("?", "help", id="btn-help", cls="tf-btn-icon", title=t("board.help"),
                   aria_label=t("board.help")),
            button(t("board.leave"), "leave", id="btn-leave", cls="tf-btn-ghost tf-btn-small",
                   title=t("board.leave_title"))
            if can_leave and not view.get("over") else None,
            button(t("board.resign"), "resign", id="btn-resign",
                   cls="tf-btn-ghost tf-btn-danger tf-btn-small", enabled=not view.get("over"),
                   title=t("board.resign_title")),
        ]
    return h("header",
             h("div", h("span", cls="tf-logo-mark tf-logo-small", aria_hidden="true"),
               h("span", "TriFront", cls="tf-brand-name"), cls="tf-brand"),
             h("div", h("span", t("board.round", n=view["round"]), cls="tf-round", id="round"),
               h("span", t("board.mode_pill", mode=t("board.mode.draft")
                           if view.get("mode") == "draft" else t("board.mode.normal")),
                 cls="tf-modepill", id="mode-pill", title=t("board.mode_title")),
               cls="tf-roundbox"),
             h("div",
               h("span", names[me], cls="tf-score-name tf-score-name-me", aria_hidden="true"),
               h("span", str(s[me]), cls="tf-score-num tf-score-me", id="score-me",
                 aria_hidden="true"),
               h("span", "–", cls="tf-score-dash", aria_hidden="true"),
               h("span", str(s[opp]), cls="tf-score-num tf-score-opp", id="score-opp",
                 aria_hidden="true"),
               h("span", names[opp], cls="tf-score-name tf-score-name-opp", aria_hidden="true"),
               h("span", t("board.first_to", n=view.get("target_score", 8)),
                 cls="tf-score-goal"),
               h("span", t("board.scores", me=names[me], a=s[me], opp=names[opp], b=s[opp]),
                 cls="tf-sr-only"),
               cls="tf-score", id="scores"),
             h("div", h("span", cls="tf-spinner", aria_hidden="true") if thinking else None, turn,
               cls=["tf-turn", "tf-turn-me" if mine else "tf-turn-opp"], id="turn",
               role="status") if turn_box else None,
             h("div", actions, cls="tf-top-actions"),
             cls="tf-topbar")


# ---------------------------------------------------------------------------------------------
# Round result, game over


def record_href(record: dict) -> str:
    """The record as a data: URL (a download needs no server)."""
    from urllib.parse import quote  # here, not at import: ~0.3 s of the page's start-up
    return "data:application/json;charset=utf-8," + quote(json.dumps(record))


def record_filename(record: dict) -> str:
    """A download name that tells games apart: mode, the seed's last digits (a told record,
    which has no seed: its draws' digest), the action count ("trifront-draft-40217-63.json");
    every file was "trifront-game.json"."""
    mode = record.get("mode") if record.get("mode") in ("normal", "draft") else "game"
    seed = record.get("seed") if type(record.get("seed")) is int else 0
    if record.get("told") is not None:
        told = json.dumps(record["told"], sort_keys=True).encode()
        seed = int(hashlib.sha256(told).hexdigest()[:8], 16)
    actions = record.get("actions") if isinstance(record.get("actions"), list) else []
    return f"trifront-{mode}-{seed % 100000:05d}-{len(actions)}.json"


# ---------------------------------------------------------------------------------------------
# Replays


# ---------------------------------------------------------------------------------------------
# Modals


def app_root(screen: El, *, overlay: El | None = None, toast: str = "",
             toast_kind: str = "error") -> El:
    """The whole of #app's content (``lang`` tells screen readers the language). Behind an
    open window the screen is ``inert``: no focus, no clicks, hidden from screen readers."""
    if overlay is not None:
        screen.attrs["inert"] = True
    notice = h("div", h("span", toast, cls="tf-toast-text"),
               button("×", "dismiss-toast", cls="tf-btn-icon", title=t("toast.dismiss"),
                      aria_label=t("toast.dismiss")),
               cls=["tf-toast", f"tf-toast-{toast_kind}"], id="toast", role="alert") \
        if toast else None
    # On the board a notice has its own place: over the action bar's prompt, which comes
    # back when it goes (news after a few seconds, a problem when closed). Over the table it
    # covered the score, the opponent's row or a hand card, depending on the screen.
    # Over an open window, at the top of its body; elsewhere in the flow at the top of the
    # screen's panel: a notice pinned over the page lay on the menu's crest and buttons.
    if notice is not None:
        body = overlay.find(".tf-modal-body") if overlay is not None else None
        prompt = screen.find(".tf-prompt-box") if body is None else None
        box = body if body is not None else None if prompt is not None \
            else screen.find(".tf-panel")
        if prompt is not None:
            notice.add_class("tf-toast-inbar")
            prompt.children.append(notice)
            notice = None
        elif box is not None:
            notice.add_class("tf-toast-flow")
            box.children.insert(0, notice)
            notice = None
    return h("div", screen, overlay, notice,
             cls="tf-root", id="tf-root", lang=i18n.get_lang(),
             data={"screen": screen.attrs.get("id", "")})
