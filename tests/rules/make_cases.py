"""Writes tests/rules/cases/*.json, the project's own rules cases: `.venv/bin/python
tests/rules/make_cases.py tests/rules/cases`. Each expectation below is worked out by hand from
docs/RULES.md, not taken from the engine (ids: rank r, copy k is 2*(r-1)+k, RECORD format)."""
import json, sys
from pathlib import Path

OUT = Path(sys.argv[1])
NORMAL = {"A": "supply", "B": "recon", "C": "ambush", "D": "strategic"}

def deck(hand):
    return list(hand) + [c for c in range(26) if c not in hand]

def up(card, lane, target=None, tlane=None):
    a = {"type": "play", "card": card, "lane": lane, "face": "up"}
    if target is not None:
        a["target"] = {"card": target} if tlane is None else {"card": target, "lane": tlane}
    return a

def down(card, lane):
    return {"type": "play", "card": card, "lane": lane, "face": "down"}

PASS = {"type": "pass"}

def lane(p0, p1, c0, c1, by_count=False):
    return {"power": [p0, p1], "cards": [c0, c1], "by_count": by_count}

def case(name, title, rules, effects, hands, actions, expect=None, illegal_at=None):
    rec = {"format": "trifront-record/1", "mode": "draft",
           "effects": [dict(NORMAL, **effects[0]), dict(NORMAL, **effects[1])],
           "first": 0, "seed": 11, "decks": [deck(hands[0]), deck(hands[1])],
           "actions": actions}
    data = {"name": title, "rules": rules, "record": rec}
    if illegal_at is not None:
        data["illegal_at"] = illegal_at
    else:
        data["expect"] = expect
    (OUT / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")

# P1's hand in most cases: 7s and a few low cards (no effect in play here)
P1 = [12, 13, 0, 1, 2]

# Captain 13 (id 24), no common soldier anywhere: 13 - 1 = 12.
case("captain_alone_loses_one", "a Captain played with no common soldier on the board is 1 weaker",
     ["R5.D6"], [{"D": "captain"}, {}], [[24, 12, 13, 14, 15], P1],
     [up(24, 2)], {"lanes": [lane(0, 0, 0, 0), lane(0, 0, 0, 0), lane(12, 0, 1, 0)]})

# Priest (id 0, rank 1) makes the 5 (id 8) a soldier; P1 passes; the soldier goes face-down
# into center; the Captain 13 then finds it (face-down counts): 13. Left: priest 1.
case("captain_counts_a_face_down_soldier",
     "a face-down common soldier spares the Captain its -1 (the rule says on the board)",
     ["R5.D6", "R5.A6", "R1.4", "R7.1"], [{"A": "priest", "D": "captain"}, {}],
     [[0, 8, 24, 12, 13], P1],
     [up(0, 0, 8), PASS, down(8, 1), up(24, 2)],
     {"lanes": [lane(1, 0, 1, 0), lane(5, 0, 1, 0), lane(13, 0, 1, 0)], "passed": [False, True]})

# Tactician 4 (id 6) moves P0's face-down 5 (id 8) from left to right, face stays down.
case("tactician_moves_a_face_down_card",
     "the Tactician moves a face-down card to another lane and it stays face-down",
     ["R5.B2", "R4.1"], [{"B": "tactician"}, {}], [[8, 6, 12, 13, 14], P1],
     [down(8, 0), PASS, up(6, 1, 8, 2)],
     {"lanes": [lane(0, 0, 0, 0), lane(4, 0, 1, 0), lane(5, 0, 1, 0)]})

# Siege engine 11 (id 20) in the left lane cannot be moved by the Tactician.
case("tactician_cannot_move_a_siege_engine", "a siege engine cannot be moved by the Tactician",
     ["R5.B2", "R5.D1"], [{"B": "tactician"}, {}], [[20, 6, 12, 13, 14], P1],
     [up(20, 0), PASS, up(6, 1, 20, 2)], illegal_at=2)

# Engineer 10 (id 18) may not be played face-down.
case("engineer_only_face_up", "an Engineer cannot be played face-down",
     ["R4.3", "R5.C5"], [{"C": "engineer"}, {}], [[18, 12, 13, 14, 15], P1],
     [down(18, 0)], illegal_at=0)

# Engineer 10 may not go into a lane where P1 already has a card.
case("engineer_needs_an_empty_lane", "an Engineer goes only into a lane with no card on either side",
     ["R4.3", "R5.C5"], [{"C": "engineer"}, {}], [[18, 12, 13, 14, 15], P1],
     [up(12, 0), up(12, 1), up(18, 1, 13)], illegal_at=2)

# Ambush 8 (id 14): face-up 8 - 2 = 6 (left), face-down 9 (id 16) 9 + 1 = 10 (center).
case("ambush_face_up_and_face_down", "an Ambush is 2 weaker face-up and 1 stronger face-down",
     ["R5.C1"], [{}, {}], [[14, 16, 12, 13, 0], P1],
     [up(14, 0), PASS, down(16, 1)],
     {"lanes": [lane(6, 0, 1, 0), lane(10, 0, 1, 0), lane(0, 0, 0, 0)]})

# Assault 1 (id 0): P1, holding playable cards, may not pass on the next turn.
case("assault_forbids_the_pass", "after an Assault the opponent may not pass while they can play",
     ["R5.A3"], [{"A": "assault"}, {}], [[0, 12, 13, 14, 15], P1],
     [up(0, 0), PASS], illegal_at=1)

# Frontline 2 (id 2): P1 may not play face-down on the next turn ...
case("frontline_forbids_face_down", "after a Frontline the opponent may not play face-down",
     ["R5.A4"], [{"A": "frontline"}, {}], [[2, 12, 13, 14, 15], P1],
     [up(2, 0), down(12, 1)], illegal_at=1)

# ... and only on that turn (R4.5): P1 plays a 7 up, P0 a 7 up, then P1's face-down 7 is legal.
case("frontline_lapses_after_one_turn", "a Frontline's ban holds for one turn only",
     ["R5.A4", "R4.5"], [{"A": "frontline"}, {}], [[2, 12, 13, 14, 15], P1],
     [up(2, 0), up(12, 1), up(12, 2), down(13, 2)],
     {"lanes": [lane(2, 0, 1, 0), lane(0, 7, 0, 1), lane(7, 7, 1, 1)], "to_move": 0})

# Archers 3 (id 4) in left: +2 while P1 has a face-down card there: 5.
case("archers_against_a_face_down_card", "Archers gain 2 while the opponent hides a card in their lane",
     ["R5.A5"], [{"A": "archers"}, {}], [[4, 12, 13, 14, 15], P1],
     [up(4, 0), down(12, 0)],
     {"lanes": [lane(5, 7, 1, 1), lane(0, 0, 0, 0), lane(0, 0, 0, 0)]})

# Commander 12 (id 22) in center: that lane compares numbers of cards.
case("commander_counts_cards", "with a face-up Commander in a lane, that lane counts cards",
     ["R5.D5", "R6.2"], [{"D": "commander"}, {}], [[22, 12, 13, 14, 15], P1],
     [up(22, 1), up(12, 1), PASS, up(13, 1), PASS],
     {"lanes": [lane(0, 0, 0, 0), lane(0, 0, 0, 0), lane(0, 0, 0, 0)],
      "scores": [0, 1], "round": 2})

# P1 resigns at once: P0 wins, nothing is scored.
case("resign_ends_the_game", "a resignation ends the game at once for the other player",
     ["R6.6"], [{}, {}], [[12, 13, 14, 15, 16], P1],
     [up(12, 0), {"type": "resign", "player": 1}],
     {"over": True, "winner": 0, "scores": [0, 0]})

# Illusionist 6 (id 10) in left: P0's face-up 7 there and P1's face-up 7 turn face-down.
case("illusionist_turns_cards_down", "an Illusionist turns the other face-up cards of its lane face-down",
     ["R5.B4"], [{"B": "illusionist"}, {}], [[12, 10, 13, 14, 15], P1],
     [up(12, 0), up(12, 0), up(10, 0)],
     {"lanes": [lane(13, 7, 2, 1), lane(0, 0, 0, 0), lane(0, 0, 0, 0)]})
