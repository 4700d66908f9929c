"""Game: a state plus the record that reproduces it; the facade the UI, CPU and host use.

>>> g = Game.new(seed=1)
>>> g.to_move
0
>>> g.apply(g.legal_actions()[-1]) is None   # pass
True
"""

from __future__ import annotations

from .actions import Action, MalformedAction
from .cards import NORMAL_EFFECTS
from .reasons import Reason
from .record import SETUP, check_record, replay, summary, to_json
from .rules import IllegalAction, apply, legal_actions
from .state import GameState
from .views import action_from_view, player_view


class Game:
    """One game. `apply` checks every action (raising rules.IllegalAction, state unchanged)."""

    def __init__(self, record: dict, state: GameState) -> None:
        self._setup = {k: record.get(k) for k in SETUP}
        self._actions: list[Action] = list(record["actions"])
        self.state = state

    @classmethod
    def new(cls, mode: str = "normal", effects=None, first: int = 0, seed: int = 0,
            decks=None) -> Game:
        """A new game. `effects`: two {group: effect} dicts; None means Normal (R2.2)."""
        if effects is None:
            effects = [dict(NORMAL_EFFECTS), dict(NORMAL_EFFECTS)]
        record = {"format": "trifront-record/1", "mode": mode, "effects": effects,
                  "first": first, "seed": seed, "decks": decks, "actions": []}
        return cls.from_record(record)

    @classmethod
    def from_record(cls, record: dict) -> Game:
        """Replay a record dict. Raises record.MalformedRecord or record.IllegalRecordAction."""
        checked = check_record(record)
        return cls(checked, replay(checked))

    def apply(self, action: Action | dict, player: int | None = None) -> None:
        """Apply one action: an Action, or its JSON. `player`: who sends it, when known
        (others' turns are refused); a player's action is read in the view form their view
        lists (`views.view_action`: a Recon target only by slot, R7.2), an action with no
        `player` as a record's JSON (card ids, as the record keeps them) or the view form.

        Raises actions.MalformedAction or rules.IllegalAction; the game is then unchanged.
        """
        if not isinstance(action, Action):
            if player is not None and (type(player) is not int or player not in (0, 1)):
                raise MalformedAction(f"player must be 0 or 1, not {player!r}")
            sender = self.state.to_move if player is None else player
            if sender is None:
                raise IllegalAction(Reason("R6.4", "game_over"))
            action = action_from_view(self.state, sender, action, by_id=player is None)
        apply(self.state, action, player)
        self._actions.append(action)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move (R3.3, R4), as Actions (record form);
        [] once the game is over."""
        return legal_actions(self.state)

    def view(self, player: int) -> dict:
        """What `player` (0 or 1) may know now (R7): views.player_view, whose shape is in
        docs/ARCHITECTURE.md."""
        return player_view(self.state, player)

    def record(self) -> dict:
        """The game so far as a trifront-record/1 dict (RECORD.md): setup and actions; replaying
        it gives this game exactly (R7.3). It holds the seed, so it reveals every hidden card."""
        s = self._setup
        return to_json(s["mode"], s["effects"], s["first"], s["seed"], s["decks"], self._actions,
                       told=s["told"])

    def summary(self) -> dict:
        """The replay summary of RECORD.md (every zone, scores, winner): record.summary."""
        return summary(self.state)

    @property
    def to_move(self) -> int | None:
        return self.state.to_move

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def winner(self) -> int | None:
        return self.state.winner
