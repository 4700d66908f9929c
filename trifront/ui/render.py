"""Build each screen as an element tree (html.El) from the view model (model.py).

Pure Python (tested on CPython in tests/ui/); dom.py mounts the tree with pyscript.web.
Every clickable element carries ``data-act`` (what the controller does) and its parameters
as data attributes; disabled choices are real ``disabled`` buttons with the reason as the
tooltip and, where a choice is in focus, inline.

Stable hooks for tests: ``#screen-menu|draft|reveal|handover|board|round|over``,
``#btn-pass|up|down|discard|cancel|back|resign|no-target``, ``#btn-lane-{0,1,2}``,
``[data-card-id]`` with ``data-owner``/``data-zone``, ``[data-lane]`` on lanes.
"""

from __future__ import annotations

import json
from urllib.parse import quote

from trifront.ui import model as m
from trifront.ui.html import El, h

GROUP_CLASS = {"A": "tf-g-a", "B": "tf-g-b", "C": "tf-g-c", "D": "tf-g-d"}


# ---------------------------------------------------------------------------------------------
# Pieces


def button(label, act: str | None = None, *, id: str | None = None, enabled: bool = True,
           reason: str = "", cls: str | list = "", data: dict | None = None,
           inline_reason: bool = False, title: str | None = None) -> El:
    """A button; disabled ones keep their reason as the tooltip (and inline if asked)."""
    classes = ["tf-btn"] + (cls.split() if isinstance(cls, str) else list(cls))
    children = [h("span", label, cls="tf-btn-label")]
    if not enabled and reason and inline_reason:
        children.append(h("span", reason, cls="tf-btn-why"))
    return h("button", children, cls=classes, id=id, type="button",
             disabled=not enabled, title=(reason if not enabled and reason else title),
             aria_disabled="true" if not enabled else None,
             data={"act": act, **(data or {})})


def card_el(face: m.CardFace, *, size: str = "sm", zone: str = "", act: str | None = None,
            selected: bool = False, dim: bool = False, extra_cls: tuple = (),
            data: dict | None = None, fresh: bool = False) -> El:
    """One card: a back, or a face with rank, power (changed power marked), effect."""
    base_cls = ["tf-card", f"tf-card--{size}", *extra_cls]
    attrs = {"owner": face.owner, "zone": zone or None, "act": act,
             "face": face.face, **(data or {})}
    if face.hidden:
        attrs["hidden-card"] = "1"
        if face.id is not None:
            attrs["card-id"] = face.id
        return h("div", h("span", "Face-down" if face.face == "down" else "", cls="tf-back-tag")
                 if face.face == "down" else None,
                 cls=base_cls + ["tf-back", "tf-fresh" if fresh else ""],
                 title=face.title, data=attrs, role="img", aria_label=face.title)
    attrs["card-id"] = face.id
    attrs["effect"] = face.effect or "none"
    cls = base_cls + [
        GROUP_CLASS.get(face.group or "", "tf-g-none"),
        "tf-soldier" if face.effect == "soldier" else "",
        "tf-facedown" if face.face_down else "",
        "tf-known" if face.known else "",
        "tf-selected" if selected else "",
        "tf-dim" if dim else "",
        "tf-fresh" if fresh else "",
        "tf-clickable" if act else "",
        "tf-long-name" if len(face.name) > 9 else "",   # may take two lines on a small card
    ]
    power_cls = ["tf-power", f"tf-power-{face.trend}" if face.trend else ""]
    power = h("div", h("span", str(face.power) if face.power is not None else "?",
                       cls="tf-power-value"),
              h("span", f"base {face.base}", cls="tf-power-base") if face.trend else None,
              cls=power_cls)
    rank = h("div", h("span", face.rank or "S", cls="tf-rank-num"),
             h("span", face.group or "", cls="tf-rank-group") if face.group else None,
             cls="tf-rank")
    tags = []
    if face.face_down:
        tags.append(h("span", "Face-down", cls="tf-tag tf-tag-down"))
    if face.known:
        tags.append(h("span", "Known", cls="tf-tag tf-tag-known"))
    return h("div", rank, power,
             h("div", face.name, cls="tf-card-name"),
             h("div", face.short, cls="tf-card-text") if face.short else None,
             h("div", tags, cls="tf-tags") if tags else None,
             cls=cls, title=face.title, data=attrs,
             role="button" if act else None, tabindex="0" if act else None)


def modal(id: str, title: str, *body, actions: list | None = None, wide: bool = False) -> El:
    return h("div",
             h("div",
               h("div", h("h2", title), button("×", "close-modal", cls="tf-btn-icon",
                                               id=f"{id}-close", title="Close"),
                 cls="tf-modal-head"),
               h("div", *body, cls="tf-modal-body"),
               h("div", actions or [], cls="tf-modal-actions") if actions else None,
               cls=["tf-modal", "tf-modal-wide" if wide else ""], role="dialog",
               aria_modal="true", aria_label=title),
             cls="tf-modal-backdrop", id=id, data={"act": "backdrop"})


def effect_chip(group: str, ranks: str, name: str) -> El:
    return h("span", h("b", group), f" {name}", cls=["tf-chip", GROUP_CLASS[group]],
             title=f"Group {group} (ranks {ranks}): {name}")


# ---------------------------------------------------------------------------------------------
# Menu


STRENGTH_TEXT = {"easy": ("Easy", "quick and forgiving"),
                 "normal": ("Normal", "searches its options"),
                 "hard": ("Hard", "thinks longer")}


def menu_screen(opts: dict, status: dict | None = None,
                strengths: tuple[str, ...] = ("easy",), online_rows: list | None = None) -> El:
    """The start menu: opponent (CPU / local / online), turn order, Normal or Draft (R2.2,
    R2.3, R3.1).

    ``status``: {"python": text, "cpu": text, "cpu_state": "ready"/"failed"/...} for the foot.
    ``online_rows``: the online match's rows (online_render.menu_rows) when kind is "online".
    """
    status = status or {}
    kind, first, mode = opts.get("kind", "cpu"), opts.get("first", "0"), opts.get("mode", "normal")

    def seg(key, value, label, sub=""):
        on = str(opts.get(key)) == value
        return h("button", h("span", label, cls="tf-seg-label"),
                 h("span", sub, cls="tf-seg-sub") if sub else None,
                 cls=["tf-seg", "tf-on" if on else ""], type="button",
                 id=f"opt-{key}-{value}", aria_pressed="true" if on else "false",
                 data={"act": "menu-set", "key": key, "value": value})

    if kind == "cpu":
        order = [seg("first", "0", "I go first"), seg("first", "1", "I go second"),
                 seg("first", "random", "Random")]
    else:
        order = [seg("first", "0", "Player 1 first"), seg("first", "1", "Player 2 first"),
                 seg("first", "random", "Random")]
    return h("section",
             h("div",
               h("div", h("div", cls="tf-logo-mark"),
                 h("h1", "TriFront", cls="tf-title"),
                 h("p", "Three fronts. Thirteen ranks. One commander: you.", cls="tf-tagline"),
                 cls="tf-menu-head"),
               h("div", h("h3", "Opponent"),
                 h("div", seg("kind", "cpu", "vs CPU", "you against the computer"),
                   seg("kind", "local", "Two players", "one device, pass it on"),
                   seg("kind", "online", "Online", "two browsers, one room word"),
                   cls="tf-segs"), cls="tf-menu-row"),
               h("div", h("h3", "Who starts"), h("div", order, cls="tf-segs"),
                 cls="tf-menu-row") if kind != "online" else None,
               online_rows if kind == "online" else None,
               h("div", h("h3", "CPU strength"),
                 h("div", [seg("strength", s, *STRENGTH_TEXT.get(s, (s.capitalize(), "")))
                           for s in strengths], cls="tf-segs"),
                 cls="tf-menu-row") if kind == "cpu" and len(strengths) > 1 else None,
               h("div", h("h3", "Effects"),
                 h("div", seg("mode", "normal", "Normal", "Supply · Recon · Ambush · Siege"),
                   seg("mode", "draft", "Draft", "each side picks 4 of 24 effects"),
                   cls="tf-segs"), cls="tf-menu-row"),
               h("div", button("Join room" if kind == "online" else "Start game", "start",
                               id="btn-start", cls="tf-btn-primary tf-btn-big"),
                 button("How to play", "help", id="btn-help", cls="tf-btn-ghost"),
                 cls="tf-menu-actions"),
               h("div",
                 h("p", status.get("python", "Runs entirely in your browser."),
                   id="python-status"),
                 h("p", status.get("cpu", "Waiting for the CPU player…"), id="cpu-status",
                   data={"state": status.get("cpu_state")}),
                 cls="tf-menu-foot"),
               cls="tf-panel tf-menu"),
             id="screen-menu", cls="tf-screen tf-screen-center", data={"mode": mode})


# ---------------------------------------------------------------------------------------------
# Draft


def draft_screen(who: str, picks: dict[str, str], note: str = "") -> El:
    """R2.3: pick one effect per group; picks stay secret until both have chosen."""
    rows = []
    for group, ranks, tiles in m.draft_groups(picks):
        tile_els = []
        for t in tiles:
            tile_els.append(h(
                "button",
                h("span", t.name, cls="tf-tile-name"),
                h("span", t.name_ja, cls="tf-tile-ja", lang="ja"),
                h("span", t.text, cls="tf-tile-text"),
                h("span", t.rule, cls="tf-tile-rule"),
                cls=["tf-tile", GROUP_CLASS[group], "tf-on" if t.selected else ""],
                type="button", id=f"draft-{group}-{t.id}", aria_pressed=str(t.selected).lower(),
                title=f"{t.name} ({t.name_ja}) — {t.text} ({t.rule})",
                data={"act": "draft-pick", "group": group, "effect": t.id}))
        rows.append(h("div",
                      h("div", h("span", group, cls="tf-group-letter"),
                        h("span", ranks, cls="tf-group-ranks"),
                        cls=["tf-group-head", GROUP_CLASS[group]]),
                      h("div", tile_els, cls="tf-tiles"),
                      cls="tf-draft-row", data={"group": group}))
    done = m.draft_complete(picks)
    left = 4 - sum(1 for g in "ABCD" if picks.get(g))
    return h("section",
             h("div",
               h("div", h("h2", f"Draft — {who}"),
                 h("p", "Pick one effect for each group. Every card of that group in your deck "
                        "carries it. Picks stay secret until both players have chosen (R2.3).",
                   cls="tf-sub"),
                 h("p", note, cls="tf-note") if note else None,
                 cls="tf-draft-head"),
               rows,
               h("div",
                 button("Back to menu", "menu", id="btn-draft-menu", cls="tf-btn-ghost"),
                 h("span", "All four picked." if done else f"{left} group{'s' if left != 1 else ''} left to pick.",
                   cls="tf-draft-count"),
                 button("Confirm picks", "draft-confirm", id="btn-draft-confirm", enabled=done,
                        reason="Pick one effect in each of the four groups first",
                        cls="tf-btn-primary"),
                 cls="tf-draft-actions"),
               cls="tf-panel tf-draft"),
             id="screen-draft", cls="tf-screen")


def reveal_screen(names: dict[int, str], effects: list[dict[str, str]], me: int = 0) -> El:
    """R2.3: both players' picks, revealed together, side by side."""
    cols = []
    for p in (me, m.other(me)):
        items = [h("li", h("span", g, cls=["tf-group-letter", GROUP_CLASS[g]]),
                   h("span", name, cls="tf-reveal-name"),
                   h("span", m.SHORT_TEXT.get(effects[p][g], ""), cls="tf-reveal-text"),
                   h("span", f"ranks {ranks}", cls="tf-reveal-ranks"))
                 for g, ranks, name in m.effects_summary(effects[p])]
        cols.append(h("div", h("h3", names[p]), h("ul", items), cls="tf-reveal-col",
                      data={"player": p}))
    return h("section",
             h("div", h("h2", "The picks are revealed"),
               h("p", "Both players chose in secret; here are the two decks' effects (R2.3).",
                 cls="tf-sub"),
               h("div", cols, cls="tf-reveal"),
               h("div", button("Start the battle", "reveal-continue", id="btn-reveal-continue",
                               cls="tf-btn-primary tf-btn-big"), cls="tf-menu-actions"),
               cls="tf-panel tf-reveal-panel"),
             id="screen-reveal", cls="tf-screen tf-screen-center")


def wait_screen(text: str) -> El:
    return h("section", h("div", h("div", cls="tf-spinner tf-spinner-big"), h("h2", text),
                          cls="tf-panel tf-handover"),
             id="screen-wait", cls="tf-screen tf-screen-center")


def error_screen(text: str) -> El:
    return h("section", h("div", h("h2", "Oops"), h("p", text, cls="tf-sub"),
                          button("Back to the menu", "menu", id="btn-error-menu",
                                 cls="tf-btn-primary"),
                          cls="tf-panel tf-handover"),
             id="screen-error", cls="tf-screen tf-screen-center")


# ---------------------------------------------------------------------------------------------
# Hand-over (local)


def handover_screen(name: str, detail: str = "") -> El:
    return h("section",
             h("div", h("div", cls="tf-handover-icon"),
               h("h2", f"Pass the device to {name}"),
               h("p", "The hands are hidden. Only " + name + " should look now.",
                 cls="tf-sub"),
               h("p", detail, cls="tf-note") if detail else None,
               button(f"I am {name} — show my hand", "handover", id="btn-handover",
                      cls="tf-btn-primary tf-btn-big"),
               cls="tf-panel tf-handover"),
             id="screen-handover", cls="tf-screen tf-screen-center")


# ---------------------------------------------------------------------------------------------
# Board


def _player_strip(view: dict, p: int, names: dict[int, str], *, mine: bool, sel: m.Selection,
                  targets: dict) -> El:
    hand = view["hands"][p]
    passed = view["passed"][p]
    cards = []
    for c in hand:
        face = m.card_face(c)
        if mine:
            status = m.hand_card_status(view, face.id)
            key = ("hand", p, face.id)
            act = "target" if key in targets else "select"
            cards.append(card_el(face, size="md", zone="hand", act=act,
                                 selected=sel.card == face.id, dim=not status.enabled,
                                 extra_cls=("tf-targetable",) if key in targets else (),
                                 data={"target-key": targets.get(key)} if key in targets else None))
        else:
            cards.append(card_el(face, size="xs" if face.hidden else "sm", zone="hand",
                                 act=None if face.hidden else "inspect"))
    deck = view["decks"][p]
    disc = view["discards"][p]
    turn = view.get("to_move") == p and not view.get("over")
    info = h("div",
             h("div", h("span", names[p], cls="tf-pname"),
               h("span", "Passed", cls="tf-badge tf-badge-pass") if passed else None,
               h("span", "To move", cls="tf-badge tf-badge-turn") if turn else None,
               cls="tf-pname-row"),
             h("div",
               h("span", h("span", cls="tf-mini-deck"), f"Deck {deck}", cls="tf-pile",
                 title=f"{deck} card{'s' if deck != 1 else ''} in the deck (order hidden, R7.2)",
                 id=f"deck-{'me' if mine else 'opp'}"),
               h("button", h("span", cls="tf-mini-discard"), f"Discard {len(disc)}",
                 cls="tf-pile tf-pile-btn", type="button", id=f"discard-{'me' if mine else 'opp'}",
                 title="Show the discard pile (public, R1.2)",
                 data={"act": "show-discard", "player": p}),
               h("span", f"Hand {len(hand)}", cls="tf-pile", id=f"handsize-{'me' if mine else 'opp'}"),
               cls="tf-piles"),
             cls="tf-pinfo")
    return h("div", info,
             h("div", cards or [h("span", "No cards in hand", cls="tf-empty")],
               cls=["tf-hand", "tf-hand-me" if mine else "tf-hand-opp"],
               id="hand-me" if mine else "hand-opp"),
             cls=["tf-player", "tf-player-me" if mine else "tf-player-opp",
                  "tf-passed" if passed else ""], data={"player": p})


def _lane_el(lane: m.LaneModel, view: dict, names: dict[int, str], *, lane_step: bool,
             lane_choice: m.Choice | None, sel_lane: int | None, targets: dict,
             fresh: set, result: str = "", result_winner: int | None = None) -> El:
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
            els.append(card_el(f, size="sm", zone="board", act=act,
                               extra_cls=("tf-targetable",) if is_t else (),
                               data={"target-key": targets[key], "lane": lane.index}
                               if is_t else {"lane": lane.index} if act == "lane" else None,
                               fresh=key in fresh))
        return els

    mid_bits = [h("span", lane.title, cls="tf-lane-title")]
    if lane.by_count:
        mid_bits.append(h("span", "⚑ By count", cls="tf-bycount",
                          title="A face-up Commander is here: this lane is won by the number "
                                "of cards, not power (R6.2)"))
    totals = h("div",
               h("span", lane.their_total, cls="tf-total tf-total-opp",
                 title=f"{names[opp]}'s total" + (" (what you can see)" if "hidden" in lane.their_total else ""),
                 data={"lane-total": "opp"}),
               h("span", "vs", cls="tf-vs"),
               h("span", lane.my_total, cls="tf-total tf-total-me",
                 title=f"{names[me]}'s total", data={"lane-total": "me"}),
               cls="tf-totals")
    pickable = lane_step and lane_choice is not None
    cls = ["tf-lane",
           "tf-lane-pick" if pickable and lane_choice.enabled else "",
           "tf-lane-blocked" if pickable and not lane_choice.enabled else "",
           "tf-lane-chosen" if sel_lane == lane.index else "",
           "tf-lane-bycount" if lane.by_count else "",
           f"tf-lead-{'me' if lane.leader == me else 'opp'}" if lane.leader is not None else ""]
    title = None
    if pickable:
        title = (f"Play into the {lane.title.lower()} lane" if lane_choice.enabled
                 else lane_choice.reason)
    result_el = None
    if result:
        result_el = h("div", result, cls=["tf-lane-result",
                                          "tf-res-me" if result_winner == me else
                                          "tf-res-opp" if result_winner == opp else "tf-res-draw"])
    return h("div",
             h("div", side(lane.theirs, opp),
               cls=["tf-side tf-side-opp", "tf-side-crowded" if len(lane.theirs) > 3 else ""]),
             h("div", h("div", mid_bits, cls="tf-lane-name"), totals, result_el,
               cls="tf-lane-mid"),
             h("div", side(lane.mine, me),
               cls=["tf-side tf-side-me", "tf-side-crowded" if len(lane.mine) > 3 else ""]),
             cls=cls, title=title,
             data={"lane": lane.index,
                   "act": "lane" if pickable and lane_choice.enabled else None,
                   "by-count": "1" if lane.by_count else None},
             aria_disabled="true" if pickable and not lane_choice.enabled else None)


def action_bar(view: dict, names: dict[int, str], sel: m.Selection, thinking: bool) -> El:
    """The prompt for the current step, its choices (disabled ones say why), pass/cancel."""
    me = view["me"]
    parts: list = []
    prompt = ""
    notes = m.restriction_notes(view)
    choices: list = []
    if view.get("over"):
        prompt = "The game is over."
    elif not m.my_turn(view):
        tm = view.get("to_move")
        prompt = (f"{names[tm]} is thinking…" if thinking else f"Waiting for {names[tm]}…") \
            if tm is not None else "…"
    elif sel.step == "card":
        prompt = "Your move: choose a card from your hand — or pass."
    else:
        cards = {c.get("id"): c for c in view["hands"][me]}
        card = cards.get(sel.card)
        label = m.card_label(card) if card else "card"
        if sel.step == "lane":
            if card is not None and m.is_discard_only(card):
                prompt = f"{label} cannot be played (R4.3) — discard it to use its effect."
                d = m.discard_choice(view, sel.card)
                choices.append(button(f"Discard {label}", "discard", id="btn-discard",
                                      enabled=d.enabled, reason=d.reason, inline_reason=True,
                                      cls="tf-btn-primary"))
                choices += [button(c.label, None, id=f"btn-lane-{c.data['lane']}",
                                   enabled=False, reason=c.reason, cls="tf-btn-lane")
                            for c in m.lane_choices(view, sel.card)]
            else:
                prompt = f"Play {label}: choose a lane."
                for c in m.lane_choices(view, sel.card):
                    choices.append(button(c.label, "lane", id=f"btn-lane-{c.data['lane']}",
                                          enabled=c.enabled, reason=c.reason, inline_reason=True,
                                          cls="tf-btn-lane", data={"lane": c.data["lane"]}))
        elif sel.step == "face":
            prompt = f"Play {label} in the {m.lane_name(sel.lane)} lane: face-up or face-down?"
            for c in m.face_choices(view, sel.card, sel.lane):
                choices.append(button(c.label, "face", id=f"btn-{c.key}", enabled=c.enabled,
                                      reason=c.reason, inline_reason=True,
                                      cls=["tf-btn-face", f"tf-btn-{c.key}"],
                                      data={"face": c.key}))
        else:
            prompt = m.target_prompt(view, sel.card)
            for i, t in enumerate(m.target_choices(view, sel.card, sel.lane, sel.face)):
                if t.key == "none":
                    choices.append(button("No target", "target", id="btn-no-target",
                                          cls="tf-btn-ghost", data={"target-key": "none"},
                                          title="Play it and choose nothing (R4.4)"))
                else:
                    choices.append(button(t.label, "target", id=f"btn-target-{t.key}",
                                          cls="tf-btn-target", data={"target-key": t.key}))
    p = m.pass_choice(view)
    tail = []
    if sel.step != "card" and m.my_turn(view):
        tail.append(button("Back", "back", id="btn-back", cls="tf-btn-ghost"))
        tail.append(button("Cancel", "cancel", id="btn-cancel", cls="tf-btn-ghost"))
    tail.append(button("Pass", "pass", id="btn-pass", enabled=p.enabled, reason=p.reason,
                       inline_reason=m.my_turn(view),
                       cls=["tf-btn-pass", "tf-btn-primary" if m.must_pass(view) else ""],
                       title="End your actions for this round (R3.3)"))
    last = m.last_opponent_action(view, names)
    parts.append(h("div", h("p", last, cls="tf-last-inline") if last else None,
                   h("p", prompt, cls="tf-prompt", id="prompt", aria_live="polite"),
                   [h("p", n, cls="tf-restrict") for n in notes],
                   cls="tf-prompt-box"))
    parts.append(h("div", choices, cls="tf-choices", id="choices"))
    parts.append(h("div", tail, cls="tf-tail"))
    return h("div", parts, cls=["tf-actionbar", "tf-myturn" if m.my_turn(view) else ""],
             id="actionbar")


def _targets_index(view: dict, sel: m.Selection) -> dict:
    """Target spot (model.TargetChoice.spot) -> target key: target cards become clickable."""
    if sel.step != "target" or not m.my_turn(view):
        return {}
    out = {}
    for t in m.target_choices(view, sel.card, sel.lane, sel.face):
        if t.spot is not None and t.lane is None:
            out[t.spot] = t.key
    return out


def board_screen(view: dict, names: dict[int, str], sel: m.Selection, *, thinking: bool = False,
                 notice: str = "", fresh: set | None = None) -> El:
    """The table: top bar, opponent, three lanes, me, the action bar and the side log.

    ``fresh``: board spots ("board", owner, lane, position) of a card just played (animated).
    """
    me = view["me"]
    opp = m.other(me)
    fresh = fresh or set()
    targets = _targets_index(view, sel)
    lane_step = sel.step == "lane" and m.my_turn(view) and not m.is_discard_only(
        next((c for c in view["hands"][me] if c.get("id") == sel.card), {}))
    lane_choices = {c.data["lane"]: c for c in m.lane_choices(view, sel.card)} \
        if lane_step else {}
    lanes = [_lane_el(lm, view, names, lane_step=lane_step,
                      lane_choice=lane_choices.get(lm.index),
                      sel_lane=sel.lane if sel.step in ("face", "target") else None,
                      targets=targets, fresh=fresh)
             for lm in m.lane_models(view)]
    last = m.last_opponent_action(view, names)
    log = [h("li", text, cls=["tf-log-round" if p is None else
                              "tf-log-me" if p == me else "tf-log-opp"])
           for p, text in m.history_lines(view, names, 12)]
    side = h("aside",
             h("div", h("h3", f"{names[opp]}'s last move"),
               h("p", last or "Nothing yet.", id="last-action", cls="tf-last"),
               cls="tf-side-box tf-last-box"),
             h("div", h("h3", "Effects in play"),
               h("div", h("span", names[opp], cls="tf-eff-who"),
                 [effect_chip(g, r, n) for g, r, n in m.effects_summary(view["effects"][opp])],
                 cls="tf-eff-row"),
               h("div", h("span", names[me], cls="tf-eff-who"),
                 [effect_chip(g, r, n) for g, r, n in m.effects_summary(view["effects"][me])],
                 cls="tf-eff-row"),
               cls="tf-side-box"),
             h("div", h("h3", "Log"), h("ol", log or [h("li", "The round begins.")],
                                         cls="tf-log", id="log"),
               cls="tf-side-box tf-log-box"),
             cls="tf-sidepanel")
    top = topbar(view, names, thinking)
    return h("section", top,
             h("div",
               h("div",
                 _player_strip(view, opp, names, mine=False, sel=sel, targets=targets),
                 h("div", lanes, cls="tf-lanes", id="lanes"),
                 _player_strip(view, me, names, mine=True, sel=sel, targets=targets),
                 action_bar(view, names, sel, thinking),
                 h("p", notice, cls="tf-notice", id="notice", role="status") if notice else None,
                 cls="tf-main"),
               side, cls="tf-table"),
             id="screen-board", cls="tf-screen tf-board",
             data={"me": me, "to-move": view.get("to_move"), "round": view.get("round"),
                   "step": sel.step, "thinking": "1" if thinking else None})


def topbar(view: dict, names: dict[int, str], thinking: bool) -> El:
    me, opp = view["me"], m.other(view["me"])
    s = view["scores"]
    turn = m.turn_text(view, names, thinking)
    mine = m.my_turn(view)
    return h("header",
             h("div", h("span", cls="tf-logo-mark tf-logo-small"),
               h("span", "TriFront", cls="tf-brand-name"), cls="tf-brand"),
             h("div", h("span", f"Round {view['round']}", cls="tf-round", id="round"),
               h("span", "Draft" if view.get("mode") == "draft" else "Normal", cls="tf-modepill"),
               cls="tf-roundbox"),
             h("div",
               h("span", names[me], cls="tf-score-name"),
               h("span", str(s[me]), cls="tf-score-num tf-score-me", id="score-me"),
               h("span", "–", cls="tf-score-dash"),
               h("span", str(s[opp]), cls="tf-score-num tf-score-opp", id="score-opp"),
               h("span", names[opp], cls="tf-score-name"),
               h("span", f"first to {view.get('target_score', 8)}", cls="tf-score-goal"),
               cls="tf-score", id="scores"),
             h("div", h("span", cls="tf-spinner") if thinking else None, turn,
               cls=["tf-turn", "tf-turn-me" if mine else "tf-turn-opp"], id="turn",
               role="status"),
             h("div", button("?", "help", id="btn-help", cls="tf-btn-icon", title="How to play"),
               button("Resign", "resign", id="btn-resign", cls="tf-btn-ghost tf-btn-danger",
                      enabled=not view.get("over"),
                      title="Give up this game: the opponent wins (R6.6)"),
               cls="tf-top-actions"),
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
               h("div", h("h2", f"Round {r.number} — the cards are revealed"),
                 h("p", r.summary, cls="tf-round-summary", id="round-summary"),
                 cls="tf-round-head"),
               h("div", h("span", names[opp], cls="tf-rr-name"), cls="tf-rr-label tf-rr-opp"),
               h("div", lanes, cls="tf-lanes tf-lanes-result"),
               h("div", h("span", names[me], cls="tf-rr-name"), cls="tf-rr-label tf-rr-me"),
               h("div",
                 h("div", h("span", "This round", cls="tf-pts-label"),
                   h("span", f"{names[me]} +{r.points[me]}", cls="tf-pts tf-pts-me"),
                   h("span", f"{names[opp]} +{r.points[opp]}", cls="tf-pts tf-pts-opp"),
                   cls="tf-pts-row"),
                 h("div", h("span", "Score", cls="tf-pts-label"),
                   h("span", f"{names[me]} {r.scores[me]}", cls="tf-pts tf-pts-me"),
                   h("span", f"{names[opp]} {r.scores[opp]}", cls="tf-pts tf-pts-opp"),
                   h("span", f"(first to {view.get('target_score', 8)})", cls="tf-pts-goal"),
                   cls="tf-pts-row", id="round-score"),
                 cls="tf-pts-box"),
               h("div", button("See the final result" if then_over else "Next round",
                               "round-continue", id="btn-continue",
                               cls="tf-btn-primary tf-btn-big"), cls="tf-menu-actions"),
               cls="tf-panel tf-round"),
             id="screen-round", cls="tf-screen tf-screen-center",
             data={"round": r.number})


def over_screen(view: dict, names: dict[int, str], record: dict | None = None) -> El:
    """R6.4–R6.6: the winner, the final score, the tie-break or resignation note.

    ``record``: the game's trifront-record/1 (RECORD.md), offered as a download.
    """
    g = m.game_over(view, names)
    me, opp = view["me"], m.other(view["me"])
    won = g.winner == me and names[me] == "You"
    rows = []
    for i, rr in enumerate(view.get("rounds") or []):
        w = [("—" if x is None else names[x]) for x in rr.get("winners", [])]
        rows.append(h("tr", h("td", f"Round {i + 1}"), [h("td", x) for x in w],
                      h("td", f"{rr['points'][me]}–{rr['points'][opp]}")))
    table = h("table", h("thead", h("tr", h("th", ""), h("th", "Left"), h("th", "Center"),
                                     h("th", "Right"), h("th", f"{names[me]}–{names[opp]}"))),
              h("tbody", rows), cls="tf-rounds-table") if rows else None
    return h("section",
             h("div", h("div", cls=["tf-crest", "tf-crest-win" if won else ""]),
               h("h2", g.headline, cls="tf-over-title", id="over-title"),
               h("p", h("span", f"{names[me]} {g.scores[me]}", cls="tf-final-me"),
                 h("span", " – "), h("span", f"{g.scores[opp]} {names[opp]}", cls="tf-final-opp"),
                 cls="tf-final", id="final-score"),
               [h("p", n, cls="tf-note", data={"note": "1"}) for n in g.notes],
               table,
               h("div", button("Play again", "menu", id="btn-again",
                               cls="tf-btn-primary tf-btn-big"),
                 h("a", "Save the game record", id="btn-record", cls="tf-btn tf-btn-ghost",
                   href="data:application/json;charset=utf-8," + quote(json.dumps(record)),
                   download="trifront-game.json",
                   title="The whole game as a trifront-record/1 file: it replays exactly")
                 if record else None,
                 cls="tf-menu-actions"),
               cls="tf-panel tf-over"),
             id="screen-over", cls="tf-screen tf-screen-center",
             data={"winner": g.winner, "tiebreak": "1" if view.get("tiebreak") else None})


# ---------------------------------------------------------------------------------------------
# Modals


HELP = [
    ("Goal", "Win lanes. There are three lanes — left, center, right. At the end of a round "
             "the side with more total power in a lane wins it and scores 1 point. First to 8 "
             "points wins (R6)."),
    ("Your deck", "26 cards: ranks 1–13, two of each. Ranks 1–3, 4–6, 8–10 and 11–13 form "
                  "groups A–D; each group carries one effect. 7s have none (R1, R2)."),
    ("A round", "Draw 5 cards in round 1, then 3 each round. Take turns: play one card into "
                "a lane face-up or face-down, or discard a discard-only card, or pass. Once "
                "you pass you are out until the round ends; it ends when both have passed "
                "(R3)."),
    ("Face-down", "A face-down card still counts with its power, but its effect does not work "
                  "and the opponent only sees a card back. Effects marked face-up only cannot "
                  "be played face-down (R4)."),
    ("Targets", "Some effects choose a target (Priest, Recon, Tactician, Decoy, Engineer). You "
                "choose it right after the lane and face — or choose no target (R4.4)."),
    ("Scoring", "All cards are revealed at round end. A face-up Commander makes its lane count "
                "cards instead of power. Ties win nothing. If the totals are level at the end, "
                "the player who went first in round 1 wins (R6)."),
]


def help_modal() -> El:
    items = [h("div", h("h4", t), h("p", body), cls="tf-help-item") for t, body in HELP]
    effects = []
    for group, ranks, tiles in m.draft_groups({}):
        effects.append(h("div", h("h4", f"Group {group} · ranks {ranks.split()[-1]}"),
                         h("ul", [h("li", h("b", t.name), f" ({t.name_ja}, {t.rule}) — {t.text}",
                                    lang=None) for t in tiles]),
                         cls=["tf-help-group", GROUP_CLASS[group]]))
    return modal("modal-help", "How to play", h("div", items, cls="tf-help"),
                 h("details", h("summary", "All 24 effects (Normal uses Supply, Recon, Ambush, "
                                           "Siege Engine)"),
                   h("div", effects, cls="tf-help-effects"), cls="tf-help-details"),
                 h("p", "Rule ids such as R4.3, shown next to every disabled choice, refer to "
                        "the numbered rules text of TriFront (RULES.md).", cls="tf-sub"),
                 actions=[button("Got it", "close-modal", id="btn-help-close",
                                 cls="tf-btn-primary")], wide=True)


def resign_modal(name: str) -> El:
    return modal("modal-resign", "Resign this game?",
                 h("p", f"{name} will lose at once; this round is not scored (R6.6)."),
                 actions=[button("Keep playing", "close-modal", id="btn-resign-cancel",
                                 cls="tf-btn-ghost"),
                          button("Resign", "resign-confirm", id="btn-resign-confirm",
                                 cls="tf-btn-danger tf-btn-primary")])


def discard_modal(view: dict, p: int, names: dict[int, str]) -> El:
    cards = [card_el(m.card_face(c), size="sm", zone="discard") for c in view["discards"][p]]
    return modal("modal-discard", f"{names[p]}'s discard pile ({len(cards)})",
                 h("div", cards or [h("p", "Empty.", cls="tf-empty")], cls="tf-discard-grid"),
                 h("p", "Oldest first. Discard piles are public (R1.2).", cls="tf-sub"),
                 wide=True)


def inspect_modal(face: m.CardFace) -> El:
    mods = [h("li", x) for x in face.mods]
    return modal("modal-inspect", face.label,
                 h("div", card_el(face, size="lg"),
                   h("div", h("p", h("b", face.name), f"  {face.name_ja}" if face.name_ja else ""),
                     h("p", face.full),
                     h("p", f"Power {face.power}" + (f" (base {face.base})" if face.trend else "")),
                     h("ul", mods) if mods else None,
                     h("p", "Face-down: its effect does not work while face-down (R4.1)."
                       if face.face_down else "", cls="tf-sub") if face.face_down else None,
                     h("p", "Known to you (R5.B4/R5.D3)", cls="tf-sub") if face.known else None,
                     cls="tf-inspect-text"),
                   cls="tf-inspect"))


def app_root(screen: El, *, overlay: El | None = None, toast: str = "",
             toast_kind: str = "error") -> El:
    """The whole of #app's content."""
    return h("div", screen, overlay,
             h("div", h("span", toast, cls="tf-toast-text"),
               button("×", "dismiss-toast", cls="tf-btn-icon", title="Dismiss"),
               cls=["tf-toast", f"tf-toast-{toast_kind}"], id="toast", role="alert")
             if toast else None,
             cls="tf-root", id="tf-root", data={"screen": screen.attrs.get("id", "")})
