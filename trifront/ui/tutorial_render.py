"""The tutorial on screen: the coach panel and the step's highlights on the board (the menu's
"Tutorial" button and first-visit offer are the menu's own, screens/menu.py). Each function takes a screen tree render.py built
and adds to it, so render.py's screens stay as they are (tests/ui/test_tutorial.py)."""

from __future__ import annotations

from trifront.ui import tutorial as tut
from trifront.ui.html import El, h
from trifront.ui.i18n import t
from trifront.ui.render import button

TARGET = "tf-coach-target"   # the element the step asks the player to use


def coach_panel(key: str, *, n: int | None = None, do: bool = True, buttons=None,
                wait: bool = False, refused: bool = False) -> El:
    """The coach's bubble: step count, title, words, what to do now, and "Skip tutorial".
    ``refused``: the player's last click was not the step's: the "do" line says "Not yet"."""
    total = len(tut.STEPS)
    return h("aside",
             h("div", cls="tf-coach-face", aria_hidden="true"),
             h("div",
               h("p", h("span", t("tutorial.coach"), cls="tf-coach-who"),
                 h("span", t("tutorial.step", n=n, total=total), cls="tf-coach-count",
                   id="coach-count") if n is not None else None,
                 cls="tf-coach-head"),
               h("h2", t(f"tutorial.{key}.title"), cls="tf-coach-title", id="coach-title"),
               h("p", t(f"tutorial.{key}.text"), cls="tf-coach-text", id="coach-text"),
               h("p", t("tutorial.refuse", do=t(f"tutorial.{key}.do")) if refused
                 else t(f"tutorial.{key}.do"),
                 cls=["tf-coach-do", "tf-coach-refused" if refused else ""], id="coach-do",
                 data={"refused": "1" if refused else None})
               if do else None,
               h("div", buttons or [],
                 button(t("tutorial.skip"), "tutorial-skip", id="btn-tutorial-skip",
                        cls="tf-btn-ghost tf-btn-small") if buttons is None else None,
                 cls="tf-coach-actions"),
               cls="tf-coach-body"),
             cls=["tf-coach", "tf-coach-wait" if wait else ""], id="coach",
             role="status", aria_live="polite", data={"step": key})


def _mark(el: El | None, focus: str | None = None) -> El | None:
    if el is not None:
        el.add_class(TARGET)
        if focus:
            el.attrs["data-autofocus"] = focus
    return el


def _clear_autofocus(tree: El) -> None:
    for el in tree.iter():
        el.attrs.pop("data-autofocus", None)


def _drop(tree: El, ident: str) -> None:
    """Remove the element with id ``ident`` from the tree (a button the tutorial does not use)."""
    for el in tree.iter():
        el.children = [c for c in el.children
                       if not (isinstance(c, El) and c.attrs.get("id") == ident)]


def decorate_board(tree: El, view: dict, step_sel: str, *, thinking: bool,
                   refused: bool = False) -> El:
    """The board during the tutorial: the coach above the table, the element the step asks
    for ringed and focused (keyboard: Enter on it does the step), Resign and Export gone
    (Skip leaves)."""
    for ident in ("btn-resign", "btn-export", "btn-leave"):
        _drop(tree, ident)
    step = tut.current_step(view)
    mine = view.get("to_move") == view["me"] and not thinking and not view.get("over")
    if not mine or step is None:
        panel = coach_panel("opp_turn", do=False, wait=True)
    else:
        panel = coach_panel(step.key, n=tut.step_index(view) + 1, refused=refused)
        tree.attrs["data-tutorial"] = step.key
        _highlight(tree, view, step, step_sel)
    # above the hand: in sight whenever the hand is (the page scrolls the hand into sight
    # as a turn begins), beside the lanes with it on short screens
    mine = tree.find(".tf-mine") or tree.find(".tf-main") or tree
    mine.children.insert(0, panel)
    return tree


def _highlight(tree: El, view: dict, step: tut.Step, step_sel: str) -> None:
    _clear_autofocus(tree)
    if step.kind == "pass":
        _mark(tree.find("#btn-pass"), "1")
        return
    if step_sel == "card":
        first = None
        for el in tree.find_all("[data-zone=hand]"):
            cid = el.attrs.get("data-card-id")
            if el.attrs.get("data-owner") != view["me"] or cid is None:
                continue
            if step.card is None or cid == step.card:
                _mark(el)
                first = first or el
        if first is not None and step.card is not None:
            first.attrs["data-autofocus"] = "1"
        for lane in tree.find_all(".tf-lane"):
            if isinstance(lane.attrs.get("data-lane"), int) and \
                    step.lane not in (None, tut.EMPTY) and lane.attrs["data-lane"] == step.lane:
                lane.add_class("tf-coach-lane")
        return
    if step_sel == "lane":
        ids = [f"#btn-lane-{i}" for i in range(3) if tut.lane_ok(step, view, i)]
    elif step_sel == "face":
        ids = [f"#btn-{f}" for f in ("up", "down") if step.face in (None, f)]
    else:   # target: any of the targets the engine offers, not "no target"
        ids = [f"#{el.attrs['id']}" for el in tree.find_all("button")
               if str(el.attrs.get("id", "")).startswith("btn-target-")]
    first = True
    for ident in ids:
        el = tree.find(ident)
        if el is not None and not el.attrs.get("disabled"):
            _mark(el, "force" if first else None)
            first = False


def decorate_round(tree: El, number: int) -> El:
    """A round's result: the coach says what the scoring meant."""
    panel = tree.find(".tf-panel")
    key = f"round{min(number, 3)}"
    (panel or tree).children.insert(2, coach_panel(key, do=False))
    return tree


def decorate_over(tree: El, finished: bool) -> El:
    """Game over: the coach's last word and "Play vs CPU" (else back to the menu)."""
    panel = tree.find(".tf-panel")
    if panel is None:
        return tree
    _clear_autofocus(tree)
    play = button(t("tutorial.play_cpu"), "tutorial-cpu", id="btn-tutorial-cpu",
                  cls="tf-btn-primary tf-btn-big")
    play.attrs["data-autofocus"] = "1"
    menu = button(t("tutorial.menu"), "tutorial-skip", id="btn-tutorial-menu",
                  cls="tf-btn-ghost")
    panel.children[-1] = h("div", play, menu, cls="tf-menu-actions")
    if finished:
        panel.children.insert(3, coach_panel("over", do=False, buttons=[]))
    return tree
