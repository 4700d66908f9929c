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


def _enabled_button(el: El) -> bool:
    return el.tag == "button" and not el.attrs.get("disabled")


def modal(id: str, title: str, *body, actions: list | None = None, wide: bool = False,
          focus: int = -1) -> El:
    """A dialog; the keyboard focus starts on ``actions[focus]`` (a confirmation of something
    that cannot be taken back starts on its safe choice, so Enter twice does not do it)."""
    actions = [a for a in actions or [] if a is not None]
    if actions:
        autofocus(actions[focus], _enabled_button)
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


def menu_screen(opts: dict, status: dict | None = None,
                strengths: tuple[str, ...] = ("easy",), online_rows: list | None = None,
                saved: str | None = None, saved_line: str = "") -> El:
    """The start menu: opponent (CPU / local / online), turn order, Normal or Draft (R2.2,
    R2.3, R3.1); the language, help, and opening a replay.

    ``status``: {"python": text, "cpu": text, "cpu_state": "ready"/"failed"/...} for the foot.
    ``online_rows``: the online match's rows (online_render.menu_rows) when kind is "online".
    ``saved``: "cpu" or "local" when a game left for the menu is saved: "Continue the saved game" comes first.
    ``saved_line``: which game that is (model.saved_game_line), or "".
    """
    status = status or {}
    kind, mode = opts.get("kind", "cpu"), opts.get("mode", "normal")

    def seg(key, value, label, sub=""):
        on = str(opts.get(key)) == value
        return h("button", h("span", label, cls="tf-seg-label"),
                 h("span", sub, cls="tf-seg-sub") if sub else None,
                 cls=["tf-seg", "tf-on" if on else ""], type="button",
                 id=f"opt-{key}-{value}", aria_pressed="true" if on else "false",
                 data={"act": "menu-set", "key": key, "value": value})

    if kind == "cpu":
        order = [seg("first", "0", t("menu.first_me")), seg("first", "1", t("menu.second_me")),
                 seg("first", "random", t("menu.random"))]
    else:
        order = [seg("first", "0", t("menu.p1_first")), seg("first", "1", t("menu.p2_first")),
                 seg("first", "random", t("menu.random"))]

    def strength(s):
        key = f"menu.strength.{s}"
        if key in i18n.EN:
            return seg("strength", s, t(key), t(key + "_sub"))
        return seg("strength", s, s.capitalize())

    cpu_state = status.get("cpu_state")
    cpu_text = (t("menu.status_cpu_page") if cpu_state == "failed" else
                t("menu.status_cpu_ready") if cpu_state == "ready" else t("menu.status_cpu"))
    return h("section",
             h("div",
               h("div", lang_button(cls="tf-btn-ghost tf-btn-small"), cls="tf-menu-lang"),
               h("div", h("div", cls="tf-logo-mark", aria_hidden="true"),
                 h("h1", "TriFront", cls="tf-title"),
                 h("p", t("menu.tagline"), cls="tf-tagline"),
                 cls="tf-menu-head"),
               h("div", button(t("menu.resume"), "resume-saved", id="btn-resume",
                               cls="tf-btn-primary"),
                 h("p", h("strong", saved_line, id="resume-what") if saved_line else None,
                   " " if saved_line else None, t(f"menu.resume_sub_{saved}"), cls="tf-sub"),
                 cls="tf-menu-resume") if saved in ("cpu", "local") else None,
               h("div", h("h2", t("menu.opponent"), cls="tf-row-title"),
                 h("div", seg("kind", "cpu", t("menu.cpu"), t("menu.cpu_sub")),
                   seg("kind", "local", t("menu.local"), t("menu.local_sub")),
                   seg("kind", "online", t("menu.online"), t("menu.online_sub")),
                   cls="tf-segs", role="group", aria_label=t("menu.opponent")),
                 cls="tf-menu-row"),
               h("div", h("h2", t("menu.starts"), cls="tf-row-title"),
                 h("div", order, cls="tf-segs", role="group", aria_label=t("menu.starts")),
                 cls="tf-menu-row") if kind != "online" else None,
               online_rows if kind == "online" else None,
               h("div", h("h2", t("menu.strength"), cls="tf-row-title"),
                 h("div", [strength(s) for s in strengths], cls="tf-segs", role="group",
                   aria_label=t("menu.strength")),
                 cls="tf-menu-row") if kind == "cpu" and len(strengths) > 1 else None,
               h("div", h("h2", t("menu.effects"), cls="tf-row-title"),
                 h("div", seg("mode", "normal", t("menu.normal"), t("menu.normal_sub")),
                   seg("mode", "draft", t("menu.draft"), t("menu.draft_sub")),
                   cls="tf-segs", role="group", aria_label=t("menu.effects")),
                 cls="tf-menu-row"),
               h("div", button(t("menu.join") if kind == "online" else t("menu.start"), "start",
                               id="btn-start", cls="tf-btn-primary tf-btn-big"),
                 button(t("menu.help"), "help", id="btn-help", cls="tf-btn-ghost"),
                 button(t("menu.replay"), "open-replay", id="btn-open-replay",
                        cls="tf-btn-ghost"),
                 cls="tf-menu-actions"),
               h("div",
                 h("p", t("menu.status_python"), id="python-status"),
                 # the CPU's state only where a CPU plays
                 h("p", cpu_text, id="cpu-status", data={"state": cpu_state})
                 if kind == "cpu" else None,
                 h("button", t("msg.cpu_retry"), type="button", id="btn-cpu-retry",
                   cls="tf-btn tf-btn-small", data={"act": "cpu-retry"})
                 if cpu_state == "failed" and kind == "cpu" else None,
                 cls="tf-menu-foot"),
               cls=["tf-panel", "tf-menu", f"tf-menu-{kind}"]),
             id="screen-menu", cls="tf-screen tf-screen-center", data={"mode": mode})


# ---------------------------------------------------------------------------------------------
# Draft


def draft_screen(who: str, picks: dict[str, str], note: str = "") -> El:
    """R2.3: pick one effect per group; picks stay secret until both have chosen."""
    rows = []
    ja = i18n.get_lang() == "ja"
    for group, ranks, tiles in m.draft_groups(picks):
        tile_els = []
        for tile in tiles:
            tile_els.append(h(
                "button",
                h("span", tile.name, cls="tf-tile-name"),
                h("span", tile.name_ja, cls="tf-tile-ja", lang="ja") if not ja else None,
                h("span", tile.text, cls="tf-tile-text"),
                h("span", tile.rule, cls="tf-tile-rule"),
                cls=["tf-tile", GROUP_CLASS[group], "tf-on" if tile.selected else ""],
                type="button", id=f"draft-{group}-{tile.id}",
                aria_pressed=str(tile.selected).lower(),
                title=f"{tile.name} — {tile.text} ({tile.rule})",
                data={"act": "draft-pick", "group": group, "effect": tile.id}))
        rows.append(h("div",
                      h("div", h("span", group, cls="tf-group-letter"),
                        h("span", ranks, cls="tf-group-ranks"),
                        cls=["tf-group-head", GROUP_CLASS[group]]),
                      h("div", tile_els, cls="tf-tiles", role="group",
                        aria_label=t("draft.group", g=group, range=m.GROUP_RANGE[group])),
                      cls="tf-draft-row", data={"group": group}))
    done = m.draft_complete(picks)
    left = 4 - sum(1 for g in "ABCD" if picks.get(g))
    count = t("draft.all") if done else (t("draft.left_one") if left == 1
                                          else t("draft.left", n=left))
    return h("section",
             h("div",
               h("div", lang_button(cls="tf-btn-ghost tf-btn-small"), cls="tf-menu-lang"),
               h("div", h("h2", t("draft.title", who=who)),
                 h("p", t("draft.intro"), cls="tf-sub"),
                 h("p", note, cls="tf-note") if note else None,
                 cls="tf-draft-head"),
               rows,
               h("div",
                 button(t("draft.menu"), "menu", id="btn-draft-menu", cls="tf-btn-ghost"),
                 h("span", count, cls="tf-draft-count", role="status"),
                 button(t("draft.confirm"), "draft-confirm", id="btn-draft-confirm",
                        enabled=done, reason=t("draft.confirm_why"), cls="tf-btn-primary"),
                 cls="tf-draft-actions"),
               cls="tf-panel tf-draft"),
             id="screen-draft", cls="tf-screen")


def reveal_screen(names: dict[int, str], effects: list[dict[str, str]], me: int = 0) -> El:
    """R2.3: both players' picks, revealed together, side by side."""
    cols = []
    for p in (me, m.other(me)):
        items = [h("li", h("span", g, cls=["tf-group-letter", GROUP_CLASS[g]]),
                   h("span", name, cls="tf-reveal-name"),
                   h("span", m.short_text(effects[p][g]) if effects[p].get(g) else "",
                     cls="tf-reveal-text"),
                   h("span", t("draft.ranks", range=ranks), cls="tf-reveal-ranks"))
                 for g, ranks, name in m.effects_summary(effects[p])]
        cols.append(h("div", h("h3", names[p]), h("ul", items), cls="tf-reveal-col",
                      data={"player": p}))
    return h("section",
             h("div", h("div", lang_button(cls="tf-btn-ghost tf-btn-small"), cls="tf-menu-lang"),
               h("h2", t("reveal.title")),
               h("p", t("reveal.intro"), cls="tf-sub"),
               h("div", cols, cls="tf-reveal"),
               h("div", autofocus(button(t("reveal.start"), "reveal-continue",
                                         id="btn-reveal-continue",
                                         cls="tf-btn-primary tf-btn-big"), _enabled_button),
                 cls="tf-menu-actions"),
               cls="tf-panel tf-reveal-panel"),
             id="screen-reveal", cls="tf-screen tf-screen-center")


def wait_screen(text: str) -> El:
    return h("section", h("div", h("div", cls="tf-spinner tf-spinner-big", aria_hidden="true"),
                          h("h2", text, role="status"),
                          cls="tf-panel tf-handover"),
             id="screen-wait", cls="tf-screen tf-screen-center")


def error_screen(text: str) -> El:
    return h("section", h("div", h("h2", t("error.title")), h("p", text, cls="tf-sub"),
                          button(t("error.menu"), "menu", id="btn-error-menu",
                                 cls="tf-btn-primary"),
                          cls="tf-panel tf-handover"),
             id="screen-error", cls="tf-screen tf-screen-center")


# ---------------------------------------------------------------------------------------------
# Hand-over (local)


def handover_screen(name: str, detail: str = "", *, draft: bool = False) -> El:
    return h("section",
             h("div", h("div", lang_button(cls="tf-btn-ghost tf-btn-small"), cls="tf-menu-lang"),
               h("div", cls="tf-handover-icon", aria_hidden="true"),
               h("h2", t("handover.title", name=name)),
               h("p", t("handover.sub", name=name), cls="tf-sub"),
               h("p", detail, cls="tf-note") if detail else None,
               autofocus(button(t("handover.btn_draft" if draft else "handover.btn", name=name),
                                "handover", id="btn-handover",
                                cls="tf-btn-primary tf-btn-big"), _enabled_button),
               cls="tf-panel tf-handover"),
             id="screen-handover", cls="tf-screen tf-screen-center")


# ---------------------------------------------------------------------------------------------
# Board


def _player_strip(view: dict, p: int, names: dict[int, str], *, mine: bool, sel: m.Selection,
                  targets: dict, readonly: bool = False, hint: m.HintShown | None = None) -> El:
    """One player's name, piles and hand. ``readonly``: a replay (nothing to choose).
    ``hint``: a ready hint; its card (and a target in this hand) is highlighted."""
    hand = view["hands"][p]
    passed = view["passed"][p]
    cards = []
    for c in hand:
        face = m.card_face(c)
        if readonly:
            cards.append(card_el(face, size="md" if mine else "xs" if face.hidden else "sm",
                                 zone="hand", act=None if face.hidden else "inspect"))
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
                                 extra_cls=extra, ribbon=_hint_ribbon(hint) if hinted else "",
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


def _lane_el(lane: m.LaneModel, view: dict, names: dict[int, str], *, lane_step: bool,
             lane_choice: m.Choice | None, sel_lane: int | None, targets: dict,
             fresh: set, result: str = "", result_winner: int | None = None,
             last: tuple | None = None, hint: m.HintShown | None = None,
             caption: tuple | None = None) -> El:
    """One lane; ``caption``: (short text, log line) of the opponent's move just made in it,
    shown over the lane's name (#move-caption), next to the card, so that nobody has to
    look for it in the log."""
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
        mid_bits.append(h("span", t("hint.mark"), cls="tf-hint-mark"))
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
    cap_el = h("div", caption[0], cls="tf-move-cap", id="move-caption",
               title=caption[1]) if caption else None
    return h("div",
             h("div", side(lane.theirs, opp),
               cls=["tf-side tf-side-opp", "tf-side-crowded" if len(lane.theirs) > 3 else ""]),
             h("div", h("div", mid_bits, cls="tf-lane-name"), cap_el, totals, result_el,
               cls="tf-lane-mid"),
             h("div", side(lane.mine, me),
               cls=["tf-side tf-side-me", "tf-side-crowded" if len(lane.mine) > 3 else ""]),
             cls=cls, title=title, role="group", aria_label=label,
             data={"lane": lane.index, "hint": "1" if hinted else None,
                   "act": "lane" if pickable and lane_choice.enabled else None,
                   "by-count": "1" if lane.by_count else None})


def action_bar(view: dict, names: dict[int, str], sel: m.Selection, thinking: bool, *,
               hint_button: str | None = None, hint: m.HintShown | None = None) -> El:
    """The prompt for the current step, its choices (disabled ones say why), pass/cancel;
    the Hint button and a ready hint with "Play it"."""
    me = view["me"]
    parts: list = []
    prompt = ""
    notes = m.restriction_notes(view)
    why_shared = ""
    choices: list = []
    if view.get("over"):
        prompt = t("prompt.over")
    elif not m.my_turn(view):
        tm = view.get("to_move")
        prompt = (t("prompt.thinking", name=names[tm]) if thinking
                  else t("prompt.waiting", name=names[tm])) if tm is not None else "…"
    elif sel.step == "card":
        prompt = t("prompt.card")
    else:
        cards = {c.get("id"): c for c in view["hands"][me]}
        card = cards.get(sel.card)
        label = m.card_label(card) if card else t("card.card")
        if sel.step == "lane":
            if card is not None and m.is_discard_only(card):
                prompt = t("prompt.unplayable", label=label)
                d = m.discard_choice(view, sel.card)
                choices.append(button(t("prompt.discard", label=label), "discard",
                                      id="btn-discard", enabled=d.enabled, reason=d.reason,
                                      inline_reason=True, cls="tf-btn-primary"))
                choices += [button(c.label, None, id=f"btn-lane-{c.data['lane']}",
                                   enabled=False, reason=c.reason, cls="tf-btn-lane")
                            for c in m.lane_choices(view, sel.card)]
            else:
                lanes = m.lane_choices(view, sel.card)
                prompt = t("prompt.lane" if any(c.enabled for c in lanes) else "prompt.no_lane",
                           label=label)
                # one reason shared by several closed lanes is said once, under the prompt
                # (a Siege Engine's "only the right lane" filled two buttons word for word)
                closed = [c for c in lanes if not c.enabled and c.reason]
                shared = (closed[0].reason if len(closed) > 1
                          and len({c.reason for c in closed}) == 1 else "")
                if shared:
                    why_shared = t("prompt.lanes_why", lanes=m.join_labels(
                        [c.label for c in closed]), reason=shared)
                for c in lanes:
                    choices.append(button(c.label, "lane", id=f"btn-lane-{c.data['lane']}",
                                          enabled=c.enabled, reason=c.reason,
                                          inline_reason=not shared,
                                          cls="tf-btn-lane", data={"lane": c.data["lane"]}))
        elif sel.step == "face":
            prompt = t("prompt.face", label=label, lane=m.lane_name(sel.lane))
            for c in m.face_choices(view, sel.card, sel.lane):
                choices.append(button(c.label, "face", id=f"btn-{c.key}", enabled=c.enabled,
                                      reason=c.reason, inline_reason=True,
                                      cls=["tf-btn-face", f"tf-btn-{c.key}"],
                                      data={"face": c.key}))
        else:
            prompt = m.target_prompt(view, sel.card)
            for target in m.target_choices(view, sel.card, sel.lane, sel.face):
                if target.key == "none":
                    choices.append(button(t("choice.no_target"), "target", id="btn-no-target",
                                          cls="tf-btn-ghost", data={"target-key": "none"},
                                          title=t("prompt.no_target_title")))
                else:
                    choices.append(button(target.label, "target",
                                          id=f"btn-target-{target.key}", cls="tf-btn-target",
                                          data={"target-key": target.key}))
        if card is not None:
            choices.append(button("i", "inspect", id="btn-inspect-selected",
                                  cls="tf-btn-ghost tf-btn-icon tf-btn-info",
                                  title=t("inspect.btn_title"),
                                  aria_label=t("inspect.btn"),
                                  data={"owner": me, "card-id": sel.card}))
    p = m.pass_choice(view)
    tail = []
    if hint_button is not None:
        busy = hint_button == "busy"
        tail.append(button(t("hint.btn_busy") if busy else t("hint.btn"), "hint", id="btn-hint",
                           enabled=hint_button == "idle",
                           cls=["tf-btn-ghost", "tf-btn-hint", "tf-busy" if busy else ""],
                           title=t("hint.btn_title"), data={"busy": "1" if busy else None}))
    if sel.step != "card" and m.my_turn(view):
        if sel.step != "lane":      # at the lane step Back would do just what Cancel does
            tail.append(button(t("prompt.back"), "back", id="btn-back", cls="tf-btn-ghost"))
        tail.append(button(t("prompt.cancel"), "cancel", id="btn-cancel", cls="tf-btn-ghost"))
    tail.append(button(p.label, "pass", id="btn-pass", enabled=p.enabled, reason=p.reason,
                       inline_reason=m.my_turn(view),
                       cls=["tf-btn-pass", "tf-btn-primary" if m.must_pass(view) else "",
                            "tf-hinted-btn" if hint is not None and hint.kind == "pass" else ""],
                       title=t("prompt.pass_title")))
    last = m.last_opponent_action(view, names)
    if hint is not None:
        parts.append(hint_box(hint))
    parts.append(h("div", h("p", last, cls="tf-last-inline") if last else None,
                   h("p", prompt, cls="tf-prompt", id="prompt", aria_live="polite"),
                   [h("p", n, cls="tf-restrict") for n in notes],
                   h("p", why_shared, cls="tf-why-shared", id="lanes-why") if why_shared
                   else None,
                   cls=["tf-prompt-box", "tf-prompt-row" if choices else ""]))
    parts.append(h("div", choices, cls="tf-choices", id="choices"))
    parts.append(h("div", tail, cls="tf-tail"))
    return h("div", parts, cls=["tf-actionbar", "tf-myturn" if m.my_turn(view) else ""],
             id="actionbar", role="group", aria_label=t("prompt.actions"))


def _hint_ribbon(hint: m.HintShown) -> str:
    if hint.kind == "discard":
        return t("hint.ribbon_discard")
    return t(f"hint.ribbon_{'down' if hint.face == 'down' else 'up'}",
             lane=m.lane_title(hint.lane) if hint.lane in m.LANES else "?")


def hint_box(hint: m.HintShown) -> El:
    """A ready hint: the suggestion in words with the win chance, "Play it", dismiss."""
    return h("div",
             h("p", hint.text, cls="tf-hint-text", id="hint-text"),
             h("span", h("span", f"{hint.percent}%", cls="tf-hint-pct-num"),
               h("span", h("span", cls="tf-hint-meter-fill", style=f"width: {hint.percent}%"),
                 cls="tf-hint-meter"),
               cls="tf-hint-pct", id="hint-pct", title=t("hint.win_title"), aria_hidden="true")
             if hint.percent is not None else None,
             h("div", button(t("hint.play"), "hint-play", id="btn-hint-play",
                             cls="tf-btn-primary tf-btn-hint-play"),
               button("×", "hint-close", id="btn-hint-close", cls="tf-btn-ghost tf-btn-icon",
                      title=t("hint.close"), aria_label=t("hint.close")),
               cls="tf-hint-actions"),
             cls="tf-hint", id="hint", role="status",
             data={"kind": hint.kind, "card": hint.card, "lane": hint.lane, "face": hint.face,
                   "win": hint.percent})


def _targets_index(view: dict, sel: m.Selection) -> dict:
    """Target spot (model.TargetChoice.spot) -> target key: target cards become clickable."""
    if sel.step != "target" or not m.my_turn(view):
        return {}
    out = {}
    for target in m.target_choices(view, sel.card, sel.lane, sel.face):
        if target.spot is not None and target.lane is None:
            out[target.spot] = target.key
    return out


def log_items(view: dict, names: dict[int, str], limit: int = 12) -> list[El]:
    """The log, newest first: round headers and one line per action (R7.1 in the view)."""
    me = view["me"]
    lines = m.history_lines(view, names, limit)
    out = []
    newest = True
    for p, text in lines:
        cls = ["tf-log-round" if p is None else "tf-log-me" if p == me else "tf-log-opp"]
        if p is not None and newest:
            cls.append("tf-log-last")
            newest = False
        out.append(h("li", text, cls=cls))
    return out


def side_panel(view: dict, names: dict[int, str]) -> El:
    me, opp = view["me"], m.other(view["me"])
    last = m.last_opponent_action(view, names)
    log = log_items(view, names, 12)
    return h("aside",
             h("div", h("h2", t("log.last", name=names[opp])),
               h("p", last or t("log.nothing"), id="last-action", cls="tf-last"),
               cls="tf-side-box tf-last-box"),
             h("div", h("h2", t("board.effects")),
               h("div", h("span", names[opp], cls="tf-eff-who"),
                 [effect_chip(g, r, n) for g, r, n in m.effects_summary(view["effects"][opp])],
                 cls="tf-eff-row"),
               h("div", h("span", names[me], cls="tf-eff-who"),
                 [effect_chip(g, r, n) for g, r, n in m.effects_summary(view["effects"][me])],
                 cls="tf-eff-row"),
               cls="tf-side-box"),
             h("div", h("div", h("h2", t("log.title")),
                        button(t("log.full"), "show-log", id="btn-log",
                               cls="tf-btn-ghost tf-btn-small", title=t("log.full_title")),
                        cls="tf-side-head"),
               h("ol", log or [h("li", t("log.empty"))], cls="tf-log", id="log",
                 tabindex="0", aria_label=t("log.title")),
               cls="tf-side-box tf-log-box"),
             cls="tf-sidepanel", aria_label=t("log.title"))


def board_screen(view: dict, names: dict[int, str], sel: m.Selection, *, thinking: bool = False,
                 notice: str = "", notice_easy: bool = False, fresh: set | None = None,
                 can_export: bool = False, can_leave: bool = False, hint_button: str | None = None, hint: m.HintShown | None = None) -> El:
    """The table: top bar, opponent, three lanes, me, the action bar and the side log.

    ``fresh``: board spots ("board", owner, lane, position) of a card just played (animated).
    The card of the last action (model.last_action_spot) is marked ``.tf-last``.
    ``hint_button``: the Hint button's state (None: no button; "idle", "busy", "off");
    ``hint``: a ready hint (model.hint_shown), highlighted on the board.
    ``can_leave``: a "Menu" button that leaves the game saved (vs the CPU, one device).
    ``notice``: the CPU's worker failed; the notice offers "Try the helper again"
    (#btn-cpu-retry) and, with ``notice_easy``, "Continue with Easy" (#btn-cpu-easy).
    """
    me = view["me"]
    opp = m.other(me)
    fresh = fresh or set()
    targets = _targets_index(view, sel)
    lane_step = sel.step == "lane" and m.my_turn(view) and not m.is_discard_only(
        next((c for c in view["hands"][me] if c.get("id") == sel.card), {}))
    lane_choices = {c.data["lane"]: c for c in m.lane_choices(view, sel.card)} \
        if lane_step else {}
    last = m.last_action_spot(view)
    cap = m.opponent_move_caption(view, names)
    lanes = [_lane_el(lm, view, names, lane_step=lane_step,
                      lane_choice=lane_choices.get(lm.index),
                      sel_lane=sel.lane if sel.step in ("face", "target") else None,
                      targets=targets, fresh=fresh, last=last, hint=hint,
                      caption=cap[1:] if cap and cap[0] == lm.index else None)
             for lm in m.lane_models(view)]
    top = topbar(view, names, thinking, can_export=can_export, can_leave=can_leave)
    bar = action_bar(view, names, sel, thinking, hint_button=hint_button, hint=hint)
    me_strip = _player_strip(view, me, names, mine=True, sel=sel, targets=targets, hint=hint)
    if sel.step != "card":
        autofocus(bar.find("#choices"), _enabled_button, force=m.my_turn(view))
    elif hint is not None:
        autofocus(bar.find("#btn-hint-play"), _enabled_button, force=True)
    elif m.my_turn(view):
        autofocus(me_strip, lambda el: el.attrs.get("data-act") == "select"
                  and "tf-dim" not in el.classes)
        if not me_strip.find("[data-autofocus]"):
            autofocus(bar, _enabled_button)
    return h("section", top,
             h("div",
               h("div",
                 _player_strip(view, opp, names, mine=False, sel=sel, targets=targets),
                 h("div", lanes, cls="tf-lanes", id="lanes", role="group",
                   aria_label=t("board.lanes")),
                 # the hand and the action bar: one column beside the lanes on short screens
                 h("div", me_strip, bar, cls="tf-mine"),
                 h("div", h("p", notice),
                   h("button", t("msg.cpu_easy"), type="button", id="btn-cpu-easy",
                     cls="tf-btn", data={"act": "cpu-easy"}) if notice_easy else None,
                   h("button", t("msg.cpu_retry"), type="button", id="btn-cpu-retry",
                     cls="tf-btn tf-btn-ghost", data={"act": "cpu-retry"}),
                   cls="tf-notice", id="notice", role="status") if notice else None,
                 cls="tf-main"),
               side_panel(view, names), cls="tf-table"),
             id="screen-board", cls="tf-screen tf-board",
             data={"me": me, "to-move": view.get("to_move"), "round": view.get("round"),
                   "step": sel.step, "thinking": "1" if thinking else None,
                   "hint": "1" if hint is not None else
                   "busy" if hint_button == "busy" else None})


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
               h("span", t("board.mode.draft") if view.get("mode") == "draft"
                 else t("board.mode.normal"), cls="tf-modepill"),
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


def round_screen(view: dict, names: dict[int, str], *, then_over: bool = False) -> El:
    """R3.6: the revealed board of the round just ended, each lane's result, the points."""
    r = m.round_result(view, names)
    me, opp = view["me"], m.other(view["me"])
    lanes = [_lane_el(lm, view, names, lane_step=False, lane_choice=None, sel_lane=None,
                      targets={}, fresh=set(), result=r.winners[lm.index],
                      result_winner=r.winner_ids[lm.index])
             for lm in r.lanes]
    return h("section",
             h("div",
               h("div", lang_button(cls="tf-btn-ghost tf-btn-small"), cls="tf-menu-lang"),
               h("div", h("h2", t("round.title", n=r.number)),
                 h("p", r.summary, cls="tf-round-summary", id="round-summary"),
                 cls="tf-round-head"),
               h("div", h("span", names[opp], cls="tf-rr-name"), cls="tf-rr-label tf-rr-opp"),
               h("div", lanes, cls="tf-lanes tf-lanes-result"),
               h("div", h("span", names[me], cls="tf-rr-name"), cls="tf-rr-label tf-rr-me"),
               _after_mine_box(view, names),
               h("div",
                 h("div", h("span", t("round.this"), cls="tf-pts-label"),
                   h("span", f"{names[me]} +{r.points[me]}", cls="tf-pts tf-pts-me"),
                   h("span", f"{names[opp]} +{r.points[opp]}", cls="tf-pts tf-pts-opp"),
                   cls="tf-pts-row"),
                 h("div", h("span", t("round.score"), cls="tf-pts-label"),
                   h("span", f"{names[me]} {r.scores[me]}", cls="tf-pts tf-pts-me"),
                   h("span", f"{names[opp]} {r.scores[opp]}", cls="tf-pts tf-pts-opp"),
                   h("span", t("round.goal", n=view.get("target_score", 8)), cls="tf-pts-goal"),
                   cls="tf-pts-row", id="round-score"),
                 cls="tf-pts-box"),
               h("div", autofocus(button(t("round.final") if then_over else t("round.next"),
                                         "round-continue", id="btn-continue",
                                         cls="tf-btn-primary tf-btn-big"), _enabled_button),
                 cls="tf-menu-actions"),
               cls="tf-panel tf-round"),
             id="screen-round", cls="tf-screen tf-screen-center",
             data={"round": r.number})


def _after_mine_box(view: dict, names: dict[int, str]) -> El | None:
    """What the opponent did after this player's last action of the round (#round-after)."""
    moves = m.opponent_moves_after_mine(view, names)
    if not moves:
        return None
    me = view["me"]
    head = (t("round.after_you") if names.get(me) == t("name.you")
            else t("round.after_name", name=names[me]))
    return h("div", h("h3", head, cls="tf-round-after-head"),
             h("ul", [h("li", x) for x in moves]),
             cls="tf-round-after", id="round-after")


def rounds_table(view: dict, names: dict[int, str]) -> El | None:
    me, opp = view["me"], m.other(view["me"])
    rows = []
    for i, rr in enumerate(view.get("rounds") or []):
        w = [(t("over.nobody") if x is None else names[x]) for x in rr.get("winners", [])]
        rows.append(h("tr", h("th", t("over.round_col", n=i + 1), scope="row"),
                      [h("td", x) for x in w],
                      h("td", f"{rr['points'][me]}–{rr['points'][opp]}")))
    if not rows:
        return None
    return h("table", h("thead", h("tr", h("td", ""),
                                   [h("th", m.lane_title(i), scope="col") for i in m.LANES],
                                   h("th", f"{names[me]} – {names[opp]}", scope="col"))),
             h("tbody", rows), cls="tf-rounds-table")


def record_href(record: dict) -> str:
    """The record as a data: URL (a download needs no server)."""
    from urllib.parse import quote  # here, not at import: ~0.3 s of the page's start-up
    return "data:application/json;charset=utf-8," + quote(json.dumps(record))


def record_filename(record: dict) -> str:
    """A download name that tells games apart: mode, the seed's last digits, the action count
    ("trifront-draft-40217-63.json"); every file was "trifront-game.json"."""
    mode = record.get("mode") if record.get("mode") in ("normal", "draft") else "game"
    seed = record.get("seed") if type(record.get("seed")) is int else 0
    actions = record.get("actions") if isinstance(record.get("actions"), list) else []
    return f"trifront-{mode}-{seed % 100000:05d}-{len(actions)}.json"


def over_screen(view: dict, names: dict[int, str], record: dict | None = None,
                share_url: str = "", *, rematch: bool = False) -> El:
    """R6.4–R6.6: the winner, the final score, the tie-break or resignation note.

    ``record``: the game's trifront-record/1 (RECORD.md), offered as a download, a share
    link (``share_url``) and a replay. The panel's last child is its row of buttons.
    """
    g = m.game_over(view, names)
    me, opp = view["me"], m.other(view["me"])
    won = g.winner == me and m._is_you(names[me])
    return h("section",
             h("div", h("div", lang_button(cls="tf-btn-ghost tf-btn-small"), cls="tf-menu-lang"),
               h("div", cls=["tf-crest", "tf-crest-win" if won else ""], aria_hidden="true"),
               h("h2", g.headline, cls="tf-over-title", id="over-title"),
               h("p", h("span", f"{names[me]} {g.scores[me]}", cls="tf-final-me"),
                 h("span", " – "), h("span", f"{g.scores[opp]} {names[opp]}", cls="tf-final-opp"),
                 cls="tf-final", id="final-score"),
               [h("p", n, cls="tf-note", data={"note": "1"}) for n in g.notes],
               rounds_table(view, names),
               h("div", autofocus(button(t("over.again"), "rematch", id="btn-again",
                                         title=t("over.again_title"),
                                         cls="tf-btn-primary tf-btn-big"), _enabled_button)
                 if rematch else None,
                 button(t("over.menu"), "menu", id="btn-over-menu",
                        cls="tf-btn-ghost" if rematch else "tf-btn-primary tf-btn-big"),
                 button(t("export.replay"), "watch-replay", id="btn-watch-replay",
                        cls="tf-btn-ghost") if record else None,
                 h("a", t("export.file"), id="btn-record", cls="tf-btn tf-btn-ghost",
                   href=record_href(record), download=record_filename(record),
                   title=t("export.file_title")) if record else None,
                 button(t("export.link"), "export", id="btn-share", cls="tf-btn-ghost")
                 if record and share_url else None,
                 cls="tf-menu-actions"),
               cls="tf-panel tf-over"),
             id="screen-over", cls="tf-screen tf-screen-center",
             data={"winner": g.winner, "tiebreak": "1" if view.get("tiebreak") else None})


# ---------------------------------------------------------------------------------------------
# Replays


def replay_screen(rv, names: dict[int, str]) -> El:
    """A replay viewer (trifront/replay.py): the board after k actions, from one player's view
    or with everything revealed, with first/back/next/last and the move in words.

    ``rv``: a model.ReplayModel.
    """
    view = rv.view
    me, opp = view["me"], m.other(view["me"])
    if rv.round_text and view.get("rounds"):   # this move ended a round: its revealed board
        r = m.round_result(view, names)
        lanes = [_lane_el(lm, view, names, lane_step=False, lane_choice=None, sel_lane=None,
                          targets={}, fresh=set(), result=r.winners[lm.index],
                          result_winner=r.winner_ids[lm.index])
                 for lm in r.lanes]
    else:
        lanes = [_lane_el(lm, view, names, lane_step=False, lane_choice=None, sel_lane=None,
                          targets={}, fresh=set(), last=m.last_action_spot(view))
                 for lm in m.lane_models(view)]
    step = t("replay.step", k=rv.k, n=rv.n)     # "Move 0 of n": the text below says "before"
    nav = h("div",
            button(t("replay.first"), "replay-step", id="btn-replay-first", enabled=rv.k > 0,
                   title=t("replay.first_title"), data={"to": 0}),
            button(t("replay.prev"), "replay-step", id="btn-replay-prev", enabled=rv.k > 0,
                   title=t("replay.prev_title"), data={"to": rv.k - 1}),
            h("span", step, id="replay-step", cls="tf-replay-step", role="status",
              data={"k": rv.k, "n": rv.n}),
            button(t("replay.next"), "replay-step", id="btn-replay-next", enabled=rv.k < rv.n,
                   title=t("replay.next_title"), data={"to": rv.k + 1}, cls="tf-btn-primary"),
            button(t("replay.last"), "replay-step", id="btn-replay-last", enabled=rv.k < rv.n,
                   title=t("replay.last_title"), data={"to": rv.n}),
            cls="tf-replay-nav", role="group", aria_label=t("replay.title"))
    views = [button(t("replay.view_you") if m._is_you(names[p]) else
                    t("replay.view_p", name=names[p]), "replay-view", id=f"replay-view-{p}",
                    pressed=rv.perspective == str(p), cls="tf-btn-ghost tf-btn-small",
                    enabled=rv.seat is None or rv.seat == p, reason=t("replay.view_seat_why"),
                    data={"view": p}) for p in (0, 1)]
    views.append(button(t("replay.view_all"), "replay-view", id="replay-view-all",
                        pressed=rv.perspective == "all", enabled=rv.can_reveal,
                        reason=t("replay.view_all_why"), cls="tf-btn-ghost tf-btn-small",
                        data={"view": "all"}))
    actions = [lang_button(cls="tf-btn-ghost tf-btn-small"),
               button("?", "help", id="btn-help", cls="tf-btn-icon", title=t("board.help"),
                      aria_label=t("board.help")),
               button(t("replay.back_game") if rv.own else t("replay.menu"), "replay-close",
                      id="btn-replay-close", cls="tf-btn-ghost tf-btn-small")]
    log = [h("li", text, cls=["tf-log-round" if p is None else
                              "tf-log-me" if p == me else "tf-log-opp"])
           for p, text in m.history_lines(view, names, 12)]
    autofocus(nav, lambda el: _enabled_button(el) and el.attrs.get("id") in (
        "btn-replay-next", "btn-replay-prev"))
    return h("section", topbar(view, names, False, actions=actions, turn_box=False),
             h("div",
               h("div",
                 h("div", h("h2", t("replay.title"), cls="tf-replay-title"),
                   h("span", t("replay.finished") if rv.finished else t("replay.running"),
                     cls="tf-modepill"),
                   nav,
                   h("div", h("span", t("replay.view"), cls="tf-replay-label"), views,
                     cls="tf-replay-views", role="group", aria_label=t("replay.view")),
                   h("p", rv.move_text or t("replay.start"), id="replay-move",
                     cls="tf-replay-move", aria_live="polite"),
                   h("p", rv.round_text, id="replay-round", cls="tf-note")
                   if rv.round_text else None,
                   cls="tf-replay-bar"),
                 _player_strip(view, opp, names, mine=False, sel=m.Selection(), targets={},
                               readonly=True),
                 h("div", lanes, cls="tf-lanes", id="lanes", role="group",
                   aria_label=t("board.lanes")),
                 _player_strip(view, me, names, mine=True, sel=m.Selection(), targets={},
                               readonly=True),
                 cls="tf-main"),
               h("aside", h("div", h("h2", t("log.title")),
                            h("ol", log or [h("li", t("log.empty"))], cls="tf-log", id="log",
                 tabindex="0", aria_label=t("log.title")),
                            cls="tf-side-box tf-log-box"),
                 cls="tf-sidepanel", aria_label=t("log.title")),
               cls="tf-table"),
             id="screen-replay", cls="tf-screen tf-board",
             data={"k": rv.k, "n": rv.n, "view": rv.perspective, "me": me})


def export_modal(record: dict, share_url: str, n_actions: int, finished: bool = False) -> El:
    """A record as a file download and as a share link (the record in the URL fragment)."""
    return modal("modal-export", t("export.title"),
                 h("p", t("export.actions_done" if finished else "export.actions", n=n_actions),
                   cls="tf-sub"),
                 h("p", h("a", t("export.file"), id="btn-record-file",
                          cls="tf-btn tf-btn-ghost", href=record_href(record),
                          download=record_filename(record), title=t("export.file_title"))),
                 h("label", t("export.link"), for_="share-replay-link", cls="tf-field-label"),
                 h("input", id="share-replay-link", cls="tf-input", type="text",
                   value=share_url, readonly=True, data={"select": "1"}),
                 h("p", t("export.link_note_done" if finished else "export.link_note"),
                   cls="tf-sub"),
                 actions=[button(t("export.copy"), "copy-link", id="btn-copy-link",
                                 cls="tf-btn-ghost", data={"text": share_url}),
                          button(t("export.replay"), "watch-replay", id="btn-export-replay",
                                 cls="tf-btn-primary") if finished else None])


def open_replay_modal(text: str = "", error: str = "") -> El:
    """Open a replay: a record file (file picker) or a pasted share link / record."""
    return modal("modal-open-replay", t("replay.open_title"),
                 h("label", t("replay.open_file"), for_="replay-file", cls="tf-field-label"),
                 h("input", id="replay-file", type="file", cls="tf-file",
                   accept=".json,application/json,text/plain", data={"file": "replay"}),
                 h("label", t("replay.open_text"), for_="replay-paste", cls="tf-field-label"),
                 h("input", id="replay-paste", cls="tf-input", type="text", value=text,
                   autocomplete="off", spellcheck="false",
                   data={"input": "replay", "enter": "replay-open"}),
                 h("p", error, id="replay-error", cls="tf-error", role="alert")
                 if error else None,
                 actions=[button(t("replay.open_btn"), "replay-open", id="btn-replay-open",
                                 cls="tf-btn-primary")])


# ---------------------------------------------------------------------------------------------
# Modals


HELP = [("help.goal", "help.goal_text"), ("help.deck", "help.deck_text"),
        ("help.round", "help.round_text"), ("help.facedown", "help.facedown_text"),
        ("help.targets", "help.targets_text"), ("help.scoring", "help.scoring_text"),
        ("help.end", "help.end_text"), ("help.modes", "help.modes_text"),
        ("help.inspect", "help.inspect_text"), ("help.keys", "help.keys_text")]


def help_modal(tab: str = "rules") -> El:
    """The rules page and the effect reference by group (two tabs)."""
    tabs = h("div",
             button(t("help.tab_rules"), "help-tab", id="help-tab-rules",
                    pressed=tab == "rules", cls="tf-btn-ghost tf-btn-small",
                    data={"tab": "rules"}),
             button(t("help.tab_effects"), "help-tab", id="help-tab-effects",
                    pressed=tab == "effects", cls="tf-btn-ghost tf-btn-small",
                    data={"tab": "effects"}),
             cls="tf-help-tabs", role="group", aria_label=t("help.title"))
    if tab == "effects":
        groups = []
        for group, ranks, tiles in m.draft_groups({}):
            items = []
            for tile in tiles:
                kind = t(f"inspect.kind.{i18n.EFFECTS[tile.id].kind}")
                items.append(h("li", h("b", tile.name), f" ({tile.rule} · {kind}) — ",
                               tile.text, id=f"help-effect-{tile.id}"))
            groups.append(h("div", h("h3", t("help.group", g=group,
                                              ranks=m.GROUP_RANGE[group])),
                            h("ul", items), cls=["tf-help-group", GROUP_CLASS[group]]))
        body = [h("p", t("help.normal_set"), cls="tf-sub"),
                h("div", groups, cls="tf-help-effects", id="help-effects")]
    else:
        body = [h("div", [h("div", h("h3", t(k)), h("p", t(v)), cls="tf-help-item")
                          for k, v in HELP], cls="tf-help", id="help-rules"),
                h("p", t("help.rule_ids"), cls="tf-sub")]
    return modal("modal-help", t("help.title"), tabs, *body,
                 actions=[button(t("help.ok"), "close-modal", id="btn-help-close",
                                 cls="tf-btn-primary")], wide=True)


def resign_modal(name: str) -> El:
    return modal("modal-resign", t("resign.title"),
                 h("p", t("resign.text", name=name)),
                 actions=[button(t("resign.keep"), "close-modal", id="btn-resign-cancel",
                                 cls="tf-btn-ghost"),
                          button(t("resign.confirm"), "resign-confirm", id="btn-resign-confirm",
                                 cls="tf-btn-danger tf-btn-primary")], focus=0)


def pass_modal(n: int) -> El:
    """R3.3: passing with cards in hand that could still be played."""
    return modal("modal-pass", t("pass.title"),
                 h("p", t("pass.text_one") if n == 1 else t("pass.text", n=n)),
                 actions=[button(t("pass.keep"), "close-modal", id="btn-pass-cancel",
                                 cls="tf-btn-ghost"),
                          button(t("pass.confirm"), "pass-confirm", id="btn-pass-confirm",
                                 cls="tf-btn-primary")], focus=0)


def discard_modal(view: dict, p: int, names: dict[int, str]) -> El:
    cards = [card_el(m.card_face(c), size="sm", zone="discard", act="inspect")
             for c in view["discards"][p]]
    return modal("modal-discard", i18n.t_of("discard.title", names[p], n=len(cards)),
                 h("div", cards or [h("p", t("discard.empty"), cls="tf-empty")],
                   cls="tf-discard-grid"),
                 h("p", t("discard.note"), cls="tf-sub"),
                 wide=True)


def log_modal(view: dict, names: dict[int, str]) -> El:
    """Every action of the game from this player's side (R7.1), grouped by round."""
    items = log_items(view, names, limit=10_000)
    return modal("modal-log", t("log.modal"),
                 h("ol", items or [h("li", t("log.empty"))], cls="tf-log tf-log-full",
                   tabindex="0", aria_label=t("log.modal"),
                   id="log-full"),
                 wide=True)


def inspect_modal(face: m.CardFace, breakdown: list | None = None) -> El:
    """Everything about one card: effect text, rank, group, current power and why."""
    rows = []
    for label, amount, kind in breakdown or ():
        rows.append(h("tr", h("th", label, scope="row"), h("td", amount),
                      cls=f"tf-why-{kind}"))
    facts = []
    if face.effect not in (None, "soldier") and face.effect in i18n.EFFECTS:
        info = i18n.EFFECTS[face.effect]
        facts.append(h("p", h("b", face.name),
                       f"  {face.name_ja}" if face.name_ja and i18n.get_lang() != "ja" else "",
                       f" · {info.rule} · {t('inspect.kind.' + info.kind)}"))
    else:
        facts.append(h("p", h("b", face.name)))
    facts.append(h("p", face.full, id="inspect-text"))
    facts.append(h("p", t("inspect.rank", rank=face.rank) if face.rank
                   else t("inspect.rank_none"),
                   f" · {t('inspect.group', group=face.group, ranks=m.GROUP_RANGE[face.group])}"
                   if face.group else ""))
    facts.append(h("p", h("b", t("inspect.power_now", n=face.power)), id="inspect-power"))
    if rows:
        facts.append(h("table", h("caption", t("inspect.why")), h("tbody", rows),
                       cls="tf-why", id="inspect-why"))
    if face.face_down:
        facts.append(h("p", t("inspect.facedown"), cls="tf-sub"))
    if face.known:
        facts.append(h("p", t("inspect.known"), cls="tf-sub"))
    if face.exposed:
        facts.append(h("p", t("inspect.exposed"), cls="tf-sub"))
    return modal("modal-inspect", face.label,
                 h("div", card_el(face, size="lg"), h("div", facts, cls="tf-inspect-text"),
                   cls="tf-inspect"),
                 actions=[button(t("inspect.close"), "close-modal", id="btn-inspect-close",
                                 cls="tf-btn-primary")])


def app_root(screen: El, *, overlay: El | None = None, toast: str = "",
             toast_kind: str = "error") -> El:
    """The whole of #app's content (``lang`` tells screen readers the language). Behind an
    open window the screen is ``inert``: no focus, no clicks, hidden from screen readers."""
    if overlay is not None:
        screen.attrs["inert"] = True
    return h("div", screen, overlay,
             h("div", h("span", toast, cls="tf-toast-text"),
               button("×", "dismiss-toast", cls="tf-btn-icon", title=t("toast.dismiss"),
                      aria_label=t("toast.dismiss")),
               cls=["tf-toast", f"tf-toast-{toast_kind}"], id="toast", role="alert")
             if toast else None,
             cls="tf-root", id="tf-root", lang=i18n.get_lang(),
             data={"screen": screen.attrs.get("id", "")})
