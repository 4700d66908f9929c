"""The tunable numbers of RULES.md (every value marked [tunable] there), and nothing else.

Other modules import these names; no other module's logic writes these numbers down. The
players' texts do (the effects' texts in cards.py, the help and short texts in ui/i18n.py, in
two languages), and tests/rules/test_r1_r2_components_effects.py checks them against these
values, so a change here that the texts do not follow fails there.
"""

#: R1.1 lanes, by index: 0 left, 1 center, 2 right.
LANES = (0, 1, 2)
LANE_NAMES = ("left", "center", "right")

#: R1.2 each deck holds ranks 1..13, two copies each.
MAX_RANK = 13
COPIES = 2
DECK_SIZE = MAX_RANK * COPIES
#: the most changes one card can carry (R5.A6, R5.C5, R5.C6, R5.D4): each comes from a card
#: its owner plays or discards, and a player owns at most its deck and one soldier per Lord
#: (R5.B6) of it; a longer list in a message is a forgery (it made every power costly)
MAX_CHANGES = 2 * DECK_SIZE

#: R1.4 power of a common soldier created by R5.B6 `lord`. [tunable]
CREATED_SOLDIER_POWER = 5

#: R3.2 hand draws at round start. [tunable]
FIRST_ROUND_DRAW = 5
LATER_ROUND_DRAW = 3

#: R6.4 the game ends when either score reaches this. [tunable]
TARGET_SCORE = 8

#: R5.D2 `general`: bonus to its player's group-D starting power.
GENERAL_BONUS = 2

#: R5.D4 `black_market`: loss on each drawn card, and the floor.
BLACK_MARKET_LOSS = 5
BLACK_MARKET_FLOOR = 1

#: R5.A2 `gunners`: power of each card of a complete 1-2-3 set.
GUNNERS_SET_POWER = 10

#: R5.A5 `archers`: bonus while facing a face-down card.
ARCHERS_BONUS = 2

#: R5.C1 `ambush`: +1 face-down, -2 face-up.
AMBUSH_DOWN = 1
AMBUSH_UP = -2

#: R5.C4 `cavalry`: doubled at or below this deck size, else power 1.
CAVALRY_DECK_LIMIT = 6

#: R5.C2: the range of a roll (the board power it sets; a told roll in a record or in
#: sealed play), inclusive.
ROLL_MIN, ROLL_MAX = 1, 13

#: R5.D3 `spy`: how many opponent hand cards are revealed.
SPY_REVEALS = 2
