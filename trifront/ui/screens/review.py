"""The game's review, a window over the game-over screen or the replay viewer (ui/review.py
holds the run): how many inaccuracies, mistakes and blunders, how much the numbers are to be
trusted, the chance to win after each of one player's moves as a graph (SVG drawn here) and
a table, each move that cost something with why and the better move, and after a game
against the CPU what the CPU knew. A point opens the replay after that move; "Show" the
board before it with the better move drawn; "Try again from here" a practice game from
there against the CPU (seats.PracticeSeat)."""

from __future__ import annotations

import json
import traceback

from trifront.record import SETUP
from trifront.replay import Replay
from trifront.ui import model as m
from trifront.ui import review as rv_mod
from trifront.ui.html import El, h
from trifront.ui.i18n import t
from trifront.ui.render import button, modal
from trifront.ui.review import Review
from trifront.ui.screens.base import on, overlay

KIND = "review"


# ------------------------------------------------------------------------ what is reviewed

def _subject(app) -> dict | None:
    """What the Review button reviews where the page is: the record, the player shown,
    whether either player may be chosen, the names, the CPU's kept beliefs (or None)."""
    if app.replay is not None:
        viewer = app.replay
        shown = viewer.view
        own = viewer.own or _same_game(app, viewer.replay.record)
        return {"record": viewer.replay.record, "replay": viewer.replay,
                "player": int(shown) if shown in ("0", "1") else 0,
                "choosable": shown == "all", "names": viewer.names(),
                "beliefs": app.seat.beliefs if own else None}
    if app.game is None or not app.game.over or app.screen != "over":
        return None
    record = app.game.record()
    if record is None:
        return None
    return {"record": record, "replay": None, "player": app.seat.acting(),
            "choosable": app.seat.reviews_both, "names": app.names,
            "beliefs": app.seat.beliefs}


def _same_game(app, record: dict) -> bool:
    if app.game is None:
        return False
    mine = app.game.record()
    return mine is not None and all(record.get(k) == mine.get(k) for k in (*SETUP, "actions"))


def _start(app, subject: dict, player: int) -> None:
    """Show the review of ``player``'s moves: the finished one if it is kept, else run it
    (going on from where a stopped run of the same game and player ended)."""
    run = app.review
    if run is None or not run.same(subject["record"], player):
        replay = subject["replay"] or Replay(subject["record"])
        run = app.review = Review(replay, player)   # its seed comes from the record
    app.overlay = (KIND,)
    if run.done < run.total:
        run.status = "running"
        app.spawn_task(_run(app, run))
    else:
        run.status = "done"


#: seconds between two redraws of the progress: a redraw of the whole page costs the main
#: thread 0.1-0.7 s on a busy 2-core machine, time the worker's search shares the cores with
REDRAW_EVERY = 1.0


async def _run(app, run: Review) -> None:
    drawn = [app.clock()]

    def progress() -> None:
        if app.clock() - drawn[0] >= REDRAW_EVERY:
            drawn[0] = app.clock()
            app.render()

    try:
        await run.run(app.cpu.review, on_progress=progress,
                      still_wanted=lambda: app.review is run and app.overlay == (KIND,))
    except Exception:  # noqa: BLE001 - the page goes on; the review says it stopped
        app.log_error("TriFront: review failed:\n" + traceback.format_exc())
        run.status = "cancelled"
        app.toast = t("review.failed")
    app.render()


# --------------------------------------------------------------------------------- clicks

@on("review")
def open_review(app, data: dict) -> None:
    subject = _subject(app)
    if subject is not None:
        _start(app, subject, subject["player"])


@on("review-side")
def choose_side(app, data: dict) -> None:
    subject = _subject(app)
    side = str(data.get("side", ""))
    if subject is not None and subject["choosable"] and side in ("0", "1"):
        if app.review is not None:
            app.review.cancel()
        _start(app, subject, int(side))


@on("review-cancel")
def cancel(app, data: dict) -> None:
    if app.review is not None:
        app.review.cancel()


@on("review-resume")
def resume(app, data: dict) -> None:
    subject = _subject(app)
    if subject is not None and app.review is not None:
        _start(app, subject, app.review.player)


@on("review-part")
def toggle_part(app, data: dict) -> None:
    """Open or close the table or "what the CPU knew" (kept across the progress's redraws)."""
    part = str(data.get("part", ""))
    if app.review is not None and part in ("table", "cpu"):
        app.review.shown ^= {part}


@on("review-go")
def go(app, data: dict) -> None:
    """A point of the graph or a listed move: the replay after that move, from the reviewed
    player's side."""
    run = app.review
    subject = _subject(app)
    if run is None or subject is None:
        return
    try:
        to = int(data.get("to", 0))
    except (TypeError, ValueError):
        return
    _replay_from_side(app, run, subject)
    if app.replay is not None:
        app.replay.suggest = None
        app.replay.step_to(to)
    app.overlay = None


def _replay_from_side(app, run, subject) -> None:
    """The reviewed game's replay, opened (or turned) to the reviewed player's side."""
    side = str(run.player)
    if app.replay is None:
        app.open_replay(json.dumps(subject["record"]), own=True, who=app.seat.who(),
                        perspective=side)
    elif app.replay.view not in (side, "all"):
        app.replay.choose_view(side)


def _point(app, data: dict):
    """The reviewed move ``data["k"]`` (its number: the record's action k, from 1) or None."""
    run = app.review
    try:
        k = int(data.get("k", 0)) - 1
    except (TypeError, ValueError):
        return None
    if run is None:
        return None
    return next((p for p in run.points if p.k == k), None)


@on("review-show")
def show(app, data: dict) -> None:
    """"Show": the replay before that move, from the reviewed player's side, with the better
    move drawn on the board (ReplayViewer.suggest)."""
    run, subject, point = app.review, _subject(app), _point(app, data)
    if run is None or subject is None or point is None:
        return
    _replay_from_side(app, run, subject)
    if app.replay is None:
        return
    if app.replay.view == "all":
        app.replay.choose_view(str(run.player))
    text = t("review.suggest", k=point.k + 1, played=action_words(point.view, point.played),
             after=_pct(point.played_estimate), best=action_words(point.view, point.best),
             better=_pct(point.estimate))
    app.replay.suggest = {"k": point.k, "player": run.player, "action": point.best,
                          "win": point.estimate, "text": text}
    app.replay.step_to(point.k)
    app.overlay = None


def can_try(record: dict) -> bool:
    """Whether a game can be played on from one of its moves: its later cards are in the
    record (a sealed online game's are not: RECORD.md "told")."""
    return not record.get("told")


@on("review-try")
def try_again(app, data: dict) -> None:
    """"Try again from here": a practice game against the CPU from before that move (the
    same deal, every card where it was), the reviewed player to move."""
    run, subject, point = app.review, _subject(app), _point(app, data)
    if run is None or subject is None or point is None:
        return
    record = subject["record"]
    if not can_try(record):
        app.toast = t("review.try_none")
        return
    from trifront.game import Game
    from trifront.ui.seats import PracticeSeat
    game = Game.from_record({k: record[k] for k in (*SETUP, "format") if k in record}
                            | {"actions": record["actions"][:point.k]})
    if app.match is not None:      # an online match is left, as "Menu" leaves it
        app.seat.close(finished=app.game is not None and app.game.over)
        if app.set_address is not None:
            app.set_address({"room": "", "signal": "", "relay": ""})
    app.replay = None
    app.overlay = None
    # the saved game (if any) stays as it was: a practice game is never saved over it
    app.open_game(game, PracticeSeat(app, run.player, point.k + 1))


@overlay(KIND)
def draw(app):
    subject = _subject(app)
    if app.review is None or subject is None:
        return None
    knew = rv_mod.cpu_knew(subject["beliefs"], app.review.replay.n) \
        if subject["beliefs"] and subject["beliefs"]["player"] != app.review.player else []
    return review_modal(app.review, subject["names"], choosable=subject["choosable"],
                        knew=knew, can=can_try(subject["record"]))


# -------------------------------------------------------------------------------- drawing

def action_words(view: dict, action: dict) -> str:
    """One of view["legal"] in words, from that view ("play Recon 5 face-up in the left
    lane")."""
    kind = action.get("type")
    if kind == "pass":
        return t("hint.pass")
    found = m.find_card(view, view["me"], action.get("card"))
    label = m.card_label(found[1]) if found else t("card.a_card")
    if kind == "discard":
        return t("hint.discard", card=label)
    face, lane = action.get("face"), action.get("lane")
    tlabel = ""
    if action.get("target"):
        for tc in m.target_choices(view, action["card"], lane, face):
            if tc.action == action:
                tlabel = tc.label
                break
    return t(f"hint.play_{'down' if face == 'down' else 'up'}", card=label,
             lane=m.lane_name(lane), target=t("hint.target", target=tlabel) if tlabel else "")


def _pct(x: float) -> int:
    return m.win_percent(x)


#: the graph's drawing box (SVG user units; it scales to the window's width)
W, H = 320, 150
LEFT, RIGHT, TOP, BOTTOM = 34, 8, 8, 20


def graph(points: list[rv_mod.Point], total: int, worst_ks: set[int]) -> El:
    """The chance after each move as an SVG line with a point per move (click: the replay
    there); the 50 % line, the axis in percent; a move labelled an inaccuracy or worse is a
    larger point in the label's colour. ``total``: moves to review (x scale)."""
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM
    n = max(total, 1)

    def x(i: int) -> float:
        return round(LEFT + (i + 0.5) * pw / n, 1)

    def y(p: float) -> float:
        return round(TOP + (1 - p) * ph, 1)

    parts = [h("rect", x=LEFT, y=TOP, width=pw, height=ph, cls="tf-rv-plot")]
    for p in (0.0, 0.5, 1.0):
        parts.append(h("line", x1=LEFT, x2=W - RIGHT, y1=y(p), y2=y(p),
                       cls="tf-rv-mid" if p == 0.5 else "tf-rv-grid"))
        parts.append(h("text", f"{int(p * 100)}%", x=LEFT - 4, y=y(p) + 4,
                       cls="tf-rv-axis", text_anchor="end"))
    parts.append(h("text", t("review.axis_moves"), x=LEFT + pw / 2, y=H - 5,
                   cls="tf-rv-axis", text_anchor="middle"))
    if points:
        parts.append(h("polyline", points=" ".join(f"{x(i)},{y(p.played_estimate)}"
                                                   for i, p in enumerate(points)),
                       cls="tf-rv-line"))
    hit = round(min(12.0, pw / n / 2), 1)   # the touch target, wider than the dot
    for i, p in enumerate(points):
        pct = _pct(p.played_estimate)
        label = t("review.point", k=p.k + 1, pct=pct)
        if p.k in worst_ks:
            label = f"{label} ({t('review.label.' + p.label)})"
        cx, cy = x(i), y(p.played_estimate)
        parts.append(h("g", h("title", label),
                       h("circle", cx=cx, cy=cy, r=hit, cls="tf-rv-hit"),
                       h("circle", cx=cx, cy=cy, r=6 if p.k in worst_ks else 4.5,
                         cls=["tf-rv-pt", f"tf-rv-{p.label}" if p.k in worst_ks else ""]),
                       role="button", tabindex="0", aria_label=label, cls="tf-rv-point",
                       id=f"review-pt-{p.k + 1}",
                       data={"act": "review-go", "to": p.k + 1, "label": p.label}))
    first = _pct(points[0].played_estimate) if points else 50
    last = _pct(points[-1].played_estimate) if points else 50
    return h("svg", parts, id="review-graph", cls="tf-rv-graph", viewBox=f"0 0 {W} {H}",
             role="group", xmlns="http://www.w3.org/2000/svg",
             aria_label=t("review.graph_label", first=first, last=last))


def _card_of(view: dict):
    """The card of one of view["legal"] as the view shows it (why's ``view_card``)."""
    def card(action: dict):
        found = m.find_card(view, view["me"], action.get("card")) \
            if action.get("type") != "pass" else None
        return found[1] if found else None
    return card


def why_text(point: rv_mod.Point) -> str:
    """ui/review.why in words."""
    kind, args = rv_mod.why(point, _card_of(point.view))
    words = {}
    for key, value in args.items():
        if key == "card":
            words[key] = m.card_label(value)
        elif key in ("lane", "at"):
            words[key] = m.lane_name(value)
        else:
            words[key] = value
    return t(f"review.why.{kind}", **words)


def counts_text(points: list[rv_mod.Point]) -> str:
    """"2 mistakes, 1 blunder" (the labels worse than good; "" when there is none)."""
    counts = rv_mod.counts(points)
    parts = [t(f"review.count.{kind}_1") if counts[kind] == 1 else
             t(f"review.count.{kind}", n=counts[kind])
             for kind in rv_mod.KINDS[1:] if counts[kind]]
    return ", ".join(parts)


def noise_points(points: list[rv_mod.Point]) -> int:
    """The error bar the page states: the median over the moves of a comparison's error bar
    (of the played value's where the played move was the best), whole points, at least 1."""
    bars = sorted(p.error if p.error else p.noise for p in points)
    if not bars:
        return 1
    return max(1, round(bars[len(bars) // 2] * 100))


def _try_button(p: rv_mod.Point, can: bool, small: bool = True) -> El | None:
    if not can:
        return None
    return button(t("review.try"), "review-try", id=f"review-try-{p.k + 1}",
                  cls="tf-btn-small tf-btn-ghost" if small else "tf-btn-small",
                  title=t("review.try_title"), data={"k": p.k + 1})


def _worst_box(points: list[rv_mod.Point], worst: list[rv_mod.Point], done: bool,
               can: bool) -> El:
    items = []
    for p in worst:
        items.append(h("li",
                       h("p", h("span", t(f"review.label.{p.label}"),
                                cls=["tf-rv-tag", f"tf-rv-{p.label}"]), " ",
                         t("review.worst_line", k=p.k + 1,
                           played=action_words(p.view, p.played)),
                         cls="tf-rv-worst-line"),
                       h("p", t("review.chances", after=_pct(p.played_estimate),
                                better=_pct(p.estimate), best=action_words(p.view, p.best)),
                         cls="tf-rv-instead"),
                       h("p", why_text(p), cls="tf-rv-why"),
                       h("div",
                         button(t("review.show"), "review-show", id=f"review-show-{p.k + 1}",
                                cls="tf-btn-small", title=t("review.show_title"),
                                data={"k": p.k + 1}),
                         _try_button(p, can), cls="tf-rv-buttons"),
                       data={"k": p.k + 1, "label": p.label}))
    body = h("ol", items, cls="tf-rv-worst-list") if items else \
        h("p", t("review.worst_none") if done and points else "", cls="tf-note")
    return h("section", h("h3", t("review.worst")), body, id="review-worst",
             cls="tf-rv-section", data={"n": len(items)})


def _part(part: str, title: str, is_open: bool, *body, **attrs) -> El:
    """A part of the window that opens and closes (a <details> whose state the page keeps:
    the progress redraws the window). Closed, its body is not drawn."""
    return h("details", h("summary", title, data={"act": "review-part", "part": part}),
             *(body if is_open else ()), open=is_open, cls="tf-rv-section", **attrs)


def _table(points: list[rv_mod.Point], is_open: bool, can: bool) -> El:
    rows = [h("tr", h("th", str(p.k + 1), scope="row"),
              h("td", action_words(p.view, p.played)),
              h("td", t(f"review.label.{p.label}"), cls=f"tf-rv-{p.label}"),
              h("td", f"{_pct(p.played_estimate)}%"),
              h("td", "—" if p.same or p.best == p.played else
                t("review.about_same") if p.about_same else action_words(p.view, p.best)),
              h("td", "" if p.same or p.best == p.played or p.about_same
                else f"{_pct(p.estimate)}%"),
              h("td", _try_button(p, can)) if can else None,
              data={"k": p.k + 1, "label": p.label})
            for p in points] if is_open else []
    cols = ("move", "played", "label", "after", "best", "best_pct") + (("try",) if can else ())
    return _part("table", t("review.table"), is_open,
                 h("div",
                   h("table",
                     h("thead", h("tr", [h("th", t(f"review.col_{c}"), scope="col")
                                         for c in cols])),
                     h("tbody", rows), cls="tf-rv-table"),
                   cls="tf-rv-table-box"),
                 id="review-table")


def _guess(odds: list) -> str:
    return t("review.cpu_guess", card=m.card_label({"rank": odds[0], "effect": odds[1]}),
             pct=round(odds[2] * 100))


def cpu_box(knew: list[rv_mod.CpuMove], is_open: bool = True) -> El | None:
    """"What the CPU knew": its hand and its odds for the other side's face-down cards at
    each of its moves."""
    if not knew:
        return None
    items = []
    for mv in (knew if is_open else ()):
        cards = ", ".join(m.card_label({"rank": r, "effect": e}) for r, e in mv.hand)
        lines = [h("p", t("review.cpu_hand", cards=cards) if mv.hand
                   else t("review.cpu_hand_empty"), cls="tf-rv-cpu-hand")]
        for s in mv.slots:
            lines.append(h("p", t("review.cpu_slot", lane=m.lane_name(s["lane"]),
                                  guesses=", ".join(_guess(o) for o in s["odds"])),
                           cls="tf-rv-cpu-slot"))
        if not mv.slots:
            lines.append(h("p", t("review.cpu_no_slots"), cls="tf-rv-cpu-slot"))
        items.append(h("li", h("h4", t("review.cpu_move", k=mv.k + 1)), lines,
                       data={"k": mv.k + 1}))
    return _part("cpu", t("review.cpu"), is_open,
                 h("p", t("review.cpu_note"), cls="tf-note"),
                 h("ol", items, cls="tf-rv-cpu-list"),
                 id="review-cpu", data={"n": len(knew)})


def review_modal(run: Review, names: dict[int, str], *, choosable: bool = False,
                 knew: list | None = None, can: bool = True) -> El:
    """The review window (see the module docstring) for ``run`` as it stands. ``can``:
    "Try again from here" is offered (``can_try``)."""
    points = run.points
    worst = rv_mod.worst(points)
    status = run.status
    name = names[run.player]
    if status == "done":
        done_key = "review.progress_done_you" if m._is_you(name) else "review.progress_done"
        progress = t(done_key, total=run.total, name=name, n=run.replay.n) \
            if run.total else t("review.none")
    elif status == "cancelled":
        progress = t("review.cancelled", done=run.done, total=run.total)
    else:
        progress = t("review.progress", done=run.done, total=run.total)
    sides = None
    if choosable:
        sides = h("div", h("span", t("review.side"), cls="tf-replay-label"),
                  [button(names[p], "review-side", id=f"review-side-{p}",
                          pressed=run.player == p, cls="tf-btn-ghost tf-btn-small",
                          data={"side": p}) for p in (0, 1)],
                  cls="tf-rv-sides", role="group", aria_label=t("review.side"))
    running = status == "running"
    bar = h("div",
            h("progress", value=run.done, max=max(run.total, 1), id="review-bar",
              aria_label=t("review.graph")),
            h("span", progress, id="review-progress", role="status", aria_live="polite",
              data={"done": run.done, "total": run.total, "status": status,
                    "actions": run.replay.n, "ms": round(run.worker_ms)}),
            button(t("review.cancel"), "review-cancel", id="btn-review-cancel",
                   cls="tf-btn-small") if running else None,
            button(t("review.resume"), "review-resume", id="btn-review-resume",
                   cls="tf-btn-small") if status == "cancelled" else None,
            cls="tf-rv-progress")
    counts = rv_mod.counts(points)
    summary = None
    if points:
        line = counts_text(points) or (t("review.counts_none") if status == "done" else "")
        summary = h("p", line, id="review-counts", cls="tf-rv-counts",
                    data={kind: counts[kind] for kind in rv_mod.KINDS})
    worlds = rv_mod.worlds_of(points)
    body = [sides, bar, summary,
            h("figure", graph(points, run.total, {p.k for p in worst}),
              h("figcaption", t("review.graph"), cls="tf-note"), cls="tf-rv-figure"),
            _worst_box(points, worst, status == "done", can),
            _table(points, "table" in run.shown, can),
            cpu_box(knew or [], "cpu" in run.shown),
            h("p", t("review.noise", worlds=worlds, name=name, pm=noise_points(points)),
              id="review-noise", cls="tf-note", data={"pm": noise_points(points)})
            if points else None,
            h("p", t("review.note"), cls="tf-note")]
    return modal("modal-review", t("review.title", name=name), *body,
                 actions=[button(t("modal.close"), "close-modal", id="btn-review-close",
                                 cls="tf-btn-primary")], wide=True)
