"""Motion on the table: what travelled between two drawings of the page, and how to show it.

dom.Mount measures the page before and after each redraw (every card, the piles and hands
that cards come from and go to, the round's results); ``plan`` compares the two and says
which card moves from where, which one turns over, which one flies to a discard pile, and
which result lands. Everything here is pure (tested on CPython); dom.py only reads the
rectangles and hands the keyframes to the Web Animations API.

The FLIP technique: a card is drawn at once where it now belongs and then animated from its
old place with a transform only, so layout never waits and clicks land on the new page at
once (the next action is never held back). Every animation ends within ``LONGEST`` seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: no animation (delay + duration) lasts longer than this, in seconds
LONGEST = 0.5

MOVE_S = 0.36       # a card that changed place (hand -> lane, lane -> lane, board -> results)
FLIP_S = 0.42       # a card that turned face-up or face-down (or was revealed)
DRAW_S = 0.36       # a new hand card from its owner's deck; a new board card from a hand
GHOST_S = 0.42      # a card that left the board, flying to its owner's discard pile
POP_S = 0.3         # a lane's result, the round's points
STAGGER_S = 0.03    # between cards that arrive together (a new round's deal)
MAX_DELAY_S = 0.14

#: ids of the places cards come from and go to, per side of the board
ANCHORS = {"deck-me": ("deck", "me"), "deck-opp": ("deck", "opp"),
           "discard-me": ("discard", "me"), "discard-opp": ("discard", "opp"),
           "hand-me": ("hand", "me"), "hand-opp": ("hand", "opp")}

#: what Mount measures: cards, the anchors above, and the results that land when they appear
SELECTOR = ("[data-card-id], [data-hidden-card], "
            + ", ".join(f"#{a}" for a in ANCHORS) + ", .tf-lane-result, .tf-pts-row")
POP_CLASSES = ("tf-lane-result", "tf-pts-row")


@dataclass(frozen=True)
class Rect:
    """A rectangle in page coordinates (scrolling the window does not change it)."""
    x: float
    y: float
    w: float
    h: float

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2


@dataclass(frozen=True)
class Item:
    """One measured element: a card (``kind`` "card"), an anchor or a result ("pop")."""
    key: str
    kind: str
    rect: Rect
    zone: str = ""                 # a card's zone: "hand", "board", "discard"...
    owner: int | None = None
    face: str = ""                 # "up", "down", "hidden" (its face is not shown)
    slot: tuple | None = None      # a board card's (owner, lane, position)
    ref: int = -1                  # its index in the measured list (dom.py finds it there)


@dataclass(frozen=True)
class Motion:
    """One animation: ``key`` of the element (in the new page, or a ghost of the old one),
    its transform keyframes (added to whatever transform the page gives it, so a raised
    hand card stays raised), its opacity from ``fade[0]`` to ``fade[1]`` if any, duration
    and delay in seconds."""
    key: str
    kind: str                      # "move", "flip", "draw", "enter", "reveal", "ghost", "pop"
    frames: list = field(default_factory=list)
    duration: float = MOVE_S
    delay: float = 0.0
    fade: tuple | None = None
    to: Rect | None = None         # a ghost's destination (its old rectangle is its start)


def measure(raw: list[dict]) -> dict[str, Item]:
    """Key the measured elements (``raw``, in document order) so that the same thing has the
    same key in both drawings.

    Each raw element: {"id": element id, "cls": class string, "card-id", "owner", "zone",
    "hidden", "face", "lane" (a board card's lane), "me" (the viewer's seat), "rect": (x, y,
    w, h)}. A card with an id is "card:<owner>:<id>" wherever it is; a card without one (the
    opponent's hand, their face-down cards) is keyed by its place: "<zone>:<owner>:<lane>:<n>"
    (the n-th such card there). Anchors are keyed by id; results by class and order."""
    out: dict[str, Item] = {}
    counts: dict[tuple, int] = {}
    me = next((_int(r.get("me")) for r in raw if r.get("me") is not None), None)
    for i, r in enumerate(raw):
        x, y, w, hh = r["rect"]
        if w <= 0 or hh <= 0:
            continue                # not displayed
        rect = Rect(x, y, w, hh)
        cls = (r.get("cls") or "").split()
        if r.get("id") in ANCHORS:
            kind, side = ANCHORS[r["id"]]
            owner = None if me is None else (me if side == "me" else 1 - me)
            out[r["id"]] = Item(r["id"], "anchor", rect, zone=kind, owner=owner, ref=i)
            continue
        pop = next((c for c in POP_CLASSES if c in cls), None)
        if pop is not None:
            n = counts[("pop", pop)] = counts.get(("pop", pop), -1) + 1
            out[f"pop:{pop}:{n}"] = Item(f"pop:{pop}:{n}", "pop", rect, ref=i)
            continue
        owner = _int(r.get("owner"))
        zone = r.get("zone") or ""
        lane = _int(r.get("lane"))
        cid = r.get("card-id")
        slot = None
        if zone == "board" and lane is not None:
            pos = counts[("slot", owner, lane)] = counts.get(("slot", owner, lane), -1) + 1
            slot = (owner, lane, pos)
        if cid is not None and cid != "":
            key = f"card:{owner}:{cid}"
        else:
            n = counts[(zone, owner, lane)] = counts.get((zone, owner, lane), -1) + 1
            key = f"{zone}:{owner}:{lane}:{n}"
        face = "hidden" if r.get("hidden") else (r.get("face") or "up")
        if key in out:              # the same card twice (an inspect window): the first
            continue
        out[key] = Item(key, "card", rect, zone=zone, owner=owner, face=face, slot=slot, ref=i)
    return out


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _anchor(items: dict[str, Item], kind: str, owner: int | None) -> Item | None:
    return next((a for a in items.values()
                 if a.kind == "anchor" and a.zone == kind and a.owner == owner), None)


def _px(v: float) -> str:
    return f"{round(v, 1):g}px"


def _transform(dx: float = 0, dy: float = 0, sx: float = 1, sy: float = 1,
               turn: float | None = None) -> str:
    out = f"translate({_px(dx)}, {_px(dy)}) scale({round(sx, 3):g}, {round(sy, 3):g})"
    if turn is not None:
        out += f" perspective(700px) rotateY({turn:g}deg)"
    return out


def _from(old: Rect, new: Rect, scale: float | None = None) -> tuple[float, float, float, float]:
    """The transform that puts ``new`` where ``old`` was (centre on centre, scaled to it)."""
    sx = old.w / new.w if scale is None else scale
    sy = old.h / new.h if scale is None else scale
    return old.cx - new.cx, old.cy - new.cy, sx, sy


def plan(before: dict[str, Item], after: dict[str, Item]) -> list[Motion]:
    """What to animate after a redraw, from the two measurements (``measure``).

    - a card in both drawings that changed place or size moves from its old place; one whose
      face changed (face-up <-> face-down, or revealed) turns over as it goes;
    - a new card on the board where a face-down card stood is that card revealed (it turns
      over there); any other new board card comes from its owner's hand; a new hand card
      comes from its owner's deck (a round's deal: one after another);
    - a card gone from the board (or a hand) while its owner's discard pile is shown flies
      there as a ghost of itself;
    - a lane's result or the points that appear land one after another.
    """
    out: list[Motion] = []
    gone = {k: b for k, b in before.items() if b.kind == "card" and k not in after}
    gone_slots = {b.slot: b for b in gone.values() if b.slot is not None and b.zone == "board"}
    revealed: set[str] = set()
    arrivals = 0
    pops = 0
    for key, a in after.items():
        if a.kind == "pop":
            if key not in before:
                delay = min(MAX_DELAY_S + 0.06, 0.07 * pops)
                pops += 1
                out.append(Motion(key, "pop", [
                    {"transform": _transform(sx=.55, sy=.55)},
                    {"transform": _transform(sx=1.08, sy=1.08), "offset": .7},
                    {"transform": _transform()}], POP_S, delay, fade=(0, 1)))
            continue
        if a.kind != "card":
            continue
        b = before.get(key)
        if b is not None:
            turned = b.face != a.face
            dx, dy, sx, sy = _from(b.rect, a.rect)
            if not turned and abs(dx) < 1 and abs(dy) < 1 and abs(sx - 1) < .02 \
                    and abs(sy - 1) < .02:
                continue
            if turned:
                out.append(Motion(key, "flip", _flip_frames(dx, dy, sx, sy), FLIP_S))
            else:
                out.append(Motion(key, "move", [{"transform": _transform(dx, dy, sx, sy)},
                                                {"transform": _transform()}], MOVE_S))
            continue
        old = gone_slots.get(a.slot) if a.zone == "board" else None
        if old is not None and old.face == "hidden" and a.face != "hidden":
            revealed.add(old.key)
            dx, dy, sx, sy = _from(old.rect, a.rect)
            out.append(Motion(key, "reveal", _flip_frames(dx, dy, sx, sy), FLIP_S))
            continue
        source = None
        if a.zone == "hand":
            source, kind = _anchor(before, "deck", a.owner) or _anchor(after, "deck", a.owner), "draw"
        elif a.zone == "board":
            source, kind = _anchor(before, "hand", a.owner) or _anchor(after, "hand", a.owner), "enter"
        if source is None:
            continue
        delay = min(MAX_DELAY_S, STAGGER_S * arrivals)
        arrivals += 1
        dx, dy, _, _ = _from(source.rect, a.rect)
        small = max(.25, min(1.0, source.rect.h / a.rect.h))
        out.append(Motion(key, kind, [{"transform": _transform(dx, dy, small, small)},
                                      {"transform": _transform()}], DRAW_S, delay,
                          fade=(.35, 1)))
    for key, b in gone.items():
        if key in revealed or b.zone not in ("board", "hand") or b.face == "hidden" \
                and b.zone == "hand":
            continue
        pile = _anchor(after, "discard", b.owner)
        if pile is None:
            continue
        dx, dy = pile.rect.cx - b.rect.cx, pile.rect.cy - b.rect.cy
        small = max(.2, min(1.0, pile.rect.h / b.rect.h))
        out.append(Motion(key, "ghost", [
            {"transform": _transform()},
            {"transform": _transform(dx * .12, dy * .12 - 14, 1.05, 1.05), "offset": .22},
            {"transform": _transform(dx, dy, small, small)}],
            GHOST_S, 0.0, fade=(1, .2), to=pile.rect))
    return out


def _flip_frames(dx: float, dy: float, sx: float, sy: float) -> list[dict]:
    """Turn over on the way: edge-on at the start, face shown from half-way."""
    return [{"transform": _transform(dx, dy, sx, sy, turn=90)},
            {"transform": _transform(dx * .35, dy * .35, 1 + (sx - 1) * .35,
                                     1 + (sy - 1) * .35, turn=40), "offset": .45},
            {"transform": _transform(turn=0)}]
