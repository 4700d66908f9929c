"""The mover's own move is shown at once, before the other page's reply (SealedPage.view_ahead):
over whole games, after each action and before any message goes, the mover's view shows
it; a step that needs nothing from the reply is shown exactly as the reply leaves it, and a
draw, a roll or a card only the reply can tell is not shown before it comes."""

from __future__ import annotations

import random

from .pipe import random_action
from .test_sealed_match import Pipe


def shown(view, me, action) -> bool:
    if action["type"] == "pass":
        return view["passed"][me]
    card = action["card"]
    in_hand = any(c.get("id") == card for c in view["hands"][me])
    if action["type"] == "discard":
        return not in_hand and any(c["id"] == card for c in view["discards"][me])
    side = view["lanes"][action["lane"]]["sides"][me]
    return not in_hand and any(c.get("id") == card and c["face"] == action["face"]
                               for c in side)


def test_each_move_shows_on_the_movers_board_before_the_reply():
    counts = {"exact": 0, "placed": 0}
    for seed in range(6):
        rng = random.Random(seed)
        pipe = Pipe("draft" if seed % 2 else "normal")
        pipe.start(rng)
        for _ in range(400):
            views = [s.view() for s in pipe.s]
            if all(v is not None and v["over"] for v in views):
                break
            for me, view in enumerate(views):
                if view is None or view["over"] or view["to_move"] != me or pipe.s[me].pending:
                    continue
                action = random_action(view, rng)
                other = pipe.s[1 - me].view()
                pipe.s[me].act(action)
                ahead = pipe.s[me].view()
                # carried out (its effect may move the card on), or placed as played
                assert pipe.s[me].pending
                assert len(ahead["history"]) == len(view["history"]) + 1 \
                    or shown(ahead, me, action), (seed, action)
                assert pipe.s[1 - me].view() == other     # nothing went yet
                pipe.pump()
                after = pipe.s[me].view()
                if ahead == after:
                    counts["exact"] += 1
                else:
                    counts["placed"] += 1
                    # what only the reply tells came with it: the history has the move now
                    assert len(after["history"]) == len(view["history"]) + 1
                    assert ahead["history"] == view["history"]
                break
        assert all(s.report is not None and s.report.fair for s in pipe.s)
    assert counts["exact"] > counts["placed"] > 0, counts
