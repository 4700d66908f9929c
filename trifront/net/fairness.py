"""Fair randomness for an online match: commit-reveal, the seed, and the guest's replay check.

Neither player alone decides the deal (RULES.md R7.3: one seed drives all randomness):
1. The host draws a secret and sends only ``commit(secret)`` (a SHA-256).
2. The guest, having seen the commitment, sends its own secret in the clear.
3. seed, first player = ``derive(host_secret, guest_secret)``. The host cannot pick a good
   seed (it committed before seeing the guest's secret); the guest cannot either (it does
   not know the host's). The guest does not learn the seed, so the deck order stays hidden
   from it (R7.2) until the host reveals its secret at game end.
Draft picks (R2.3) work the same way: the host commits to ``picks_commit(picks, salt)``
before the guest sends its picks, and reveals picks and salt after.

In Draft the host commits to its picks before the guest sends its seed secret (guest.py
holds the secret back until then), so the host never picks knowing the deal.

At game end the guest checks everything with ``check_game``: the host's secret matches the
commitment, the record uses the derived seed and first player, the effects are what both
sides picked, the record replays legally, every view the guest was shown (kept as digests)
is exactly the view the replay gives at that point, every guest move in the record is the
one the guest sent for that move, and a resignation of the guest is one it sent (else the
host claimed the win). The guest adds whether the host restarted the deal after seeing its
secret (guest.py).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass, field

from ..cards import NORMAL_EFFECTS
from ..actions import MalformedAction
from ..record import IllegalRecordAction, MalformedRecord, check_record
from ..rules import IllegalAction, apply, new_state
from ..views import action_from_view, player_view

SEED_BITS = 53  # the seed stays an exact JSON number in any language
#: "how it ended" fails with this: the record (or the last view) says the guest resigned
CLAIMED = ("the record says I resigned, but this page never did: the host claimed the win "
           "(it may, once my page has been away for the whole countdown)")


def new_secret() -> str:
    """32 random bytes as 64 hex digits (the OS's CSPRNG; crypto.getRandomValues in Pyodide)."""
    return secrets.token_hex(32)


def _sha(*parts: bytes) -> bytes:
    h = hashlib.sha256()
    for p in parts:
        h.update(p)
    return h.digest()


def commit(secret: str) -> str:
    """The commitment to a secret (64 hex digits)."""
    return _sha(b"trifront-commit/1:", bytes.fromhex(secret)).hex()


def derive(host_secret: str, guest_secret: str) -> tuple[int, int]:
    """(seed, first player) from both secrets."""
    d = _sha(b"trifront-seed/1:", bytes.fromhex(host_secret), bytes.fromhex(guest_secret))
    return int.from_bytes(d[:8], "big") >> (64 - SEED_BITS), d[8] & 1


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def picks_commit(picks: dict, salt: str) -> str:
    return _sha(b"trifront-picks/1:", bytes.fromhex(salt), canonical(picks).encode()).hex()


def moves_commits(secret: str, actions: list[dict]) -> list[str]:
    """The host's commitment to the moves so far, after each of them: c0 = HMAC(secret,
    start), c(k+1) = HMAC(secret, c(k) + action k as record JSON). Sent with every view
    (``state.moves``), it binds the host's hidden choices (which card went face-down) as they
    are made, so the host cannot rewrite an earlier move later.

    Keyed, because the guest knows every part of a hidden move but its card: from an unkeyed
    chain it would try the few dozen card ids until c(k+1) came out, and read every
    face-down card as it was played. Without the secret (revealed only at game end) no
    candidate can be tested. ``actions``: RECORD.md JSON objects. Returns c0 ... c(len)."""
    key = bytes.fromhex(secret)
    c = hmac.new(key, b"trifront-moves/2:start", hashlib.sha256).digest()
    out = [c.hex()]
    for action in actions:
        c = hmac.new(key, b"trifront-moves/2:" + c + canonical(action).encode(),
                     hashlib.sha256).digest()
        out.append(c.hex())
    return out


def view_digest(view: dict) -> str:
    """A view's fingerprint; equal for a view and its JSON round trip."""
    return hashlib.sha256(canonical(view).encode()).hexdigest()


@dataclass
class Report:
    """The guest's verdict: ``fair`` only if every check passed."""

    #: (name, passed, detail): the detail a sentence (this module's checks) or, a sealed
    #: game's, data: {"code", "step", "args"} (sealed.fault), put in words by the page
    checks: list[tuple[str, bool, str | dict]] = field(default_factory=list)
    #: a sealed game's told record (RECORD.md "told"), when the audit replayed it to its
    #: end with every check passed: the game as both pages may now replay and review it.
    #: Kept only while the report is fair: a failed check drops it
    record: dict | None = None
    #: a sealed game that failed a check: the told record of the steps before it, each
    #: checked (both keys revealed); what can still be exported of it
    partial: dict | None = None

    def add(self, name: str, ok: bool, detail: str | dict = "") -> bool:
        self.checks.append((name, bool(ok), detail))
        if not ok:
            self.record = None
        return bool(ok)

    #: the checks that say the revealed game is the one committed to, replayed to its end
    FINISHED = ("host commitment", "seed", "first player", "replay")

    @property
    def finished(self) -> bool:
        """The game was revealed and is the one committed to, played to its end (fair or
        not in other ways): a new game after it is no restarted deal. (A rematch's first
        player is the agreed one, not the seed's: "first player agreed".)"""
        ok = {name: passed for name, passed, _ in self.checks}
        ok.setdefault("first player", ok.get("first player agreed"))
        return all(ok.get(name) is True for name in self.FINISHED)

    @property
    def fair(self) -> bool:
        return bool(self.checks) and all(ok for _, ok, _ in self.checks)

    def summary(self) -> str:
        bad = [f"{name}: {_english(detail)}" if detail else name
               for name, ok, detail in self.checks if not ok]
        return ("Fair: " + ", ".join(n for n, _, _ in self.checks) + " all check out."
                if self.fair else "NOT fair — " + "; ".join(bad))

    def to_json(self) -> dict:
        data = {"fair": self.fair, "summary": self.summary(),
                "checks": [{"name": n, "ok": ok, "detail": d} for n, ok, d in self.checks]}
        if self.record is not None:
            data["record"] = self.record
        if self.partial is not None:
            data["partial"] = self.partial
        return data

    @classmethod
    def from_json(cls, data: dict) -> Report:
        """The inverse of ``to_json`` (a page's saved verdict). Raises on a malformed one."""
        checks = [(str(c["name"]), c["ok"] is True,
                   c["detail"] if isinstance(c["detail"], dict) else str(c["detail"]))
                  for c in data["checks"]]
        report = cls(checks, data.get("record") if isinstance(data.get("record"), dict) else None)
        if not report.fair:
            report.record = None
            partial = data.get("partial")
            report.partial = partial if isinstance(partial, dict) else None
        return report


def _english(detail: str | dict) -> str:
    """A check's detail in English (a sealed one is data: the catalogue's words)."""
    if isinstance(detail, dict):
        from ..ui.i18n import fault_english
        return fault_english(detail)
    return detail


def check_game(*, record: object, host_secret: str, host_commit: str, guest_secret: str | None,
               mode: str, guest: int, my_picks: dict | None = None,
               host_picks: dict | None = None, host_picks_salt: str | None = None,
               host_picks_commit: str | None = None,
               digests: dict[int, str] | None = None,
               my_moves: dict[int, list] | None = None, i_resigned: bool = False,
               moves: dict[int, str] | None = None, first: int | None = None,
               timed_out: set[int] | None = None) -> Report:
    """Check a finished online game from the guest's side (see the module text).

    ``digests``: move number -> view_digest of the view the guest was shown there;
    ``my_moves``: move number -> every action (view form) the guest sent at that move, in
    order, each as ``[action, refused]`` (refused: the host answered it with ``refused``);
    ``i_resigned``: the guest sent a resignation (R6.6); ``moves``: move number -> the
    host's ``moves_commits`` entry sent with that view; ``first``: the first player both
    pages agreed on (a rematch alternates, rematch.py), None: the seed's; ``timed_out``:
    move numbers at which the guest's own move clock had run out (clock.py), where the
    host may have taken the time-out's action for it."""
    rep = Report()
    host = 1 - guest
    rep.add("host commitment", commit(host_secret) == host_commit,
            "the revealed secret does not match what the host committed to")
    try:
        checked = check_record(record)
    except MalformedRecord as e:
        rep.add("record", False, str(e))
        return rep
    if guest_secret is None:
        rep.add("seed", False, "this page lost its own secret, so the seed cannot be checked")
    else:
        seed, seed_first = derive(host_secret, guest_secret)
        rep.add("seed", checked["seed"] == seed, "the record's seed is not the agreed one")
        if first is None:
            rep.add("first player", checked["first"] == seed_first,
                    "the first player is not the one the seed chose")
    if first is not None:
        rep.add("first player agreed", checked["first"] == first,
                "the first player is not the one agreed for the rematch")
    rep.add("mode", checked["mode"] == mode and checked["decks"] is None,
            "the record's mode or decks differ from the match's")
    effects = checked["effects"]
    if mode == "normal":
        rep.add("effects", effects == [NORMAL_EFFECTS, NORMAL_EFFECTS],
                "Normal mode must use the R2.2 effects")
    else:
        rep.add("my picks", my_picks is not None and effects[guest] == my_picks,
                "my effects in the record are not what I picked")
        rep.add("host picks", host_picks is not None and host_picks_salt is not None
                and host_picks_commit == picks_commit(host_picks, host_picks_salt)
                and effects[host] == host_picks,
                "the host's effects differ from what it committed to")
    try:
        state = new_state(checked["mode"], effects, checked["first"], checked["seed"], None)
    except (ValueError, TypeError, KeyError) as e:
        rep.add("replay", False, str(e))
        return rep
    digests = dict(digests or {})
    seen_ok, compared = True, 0

    def compare(n: int) -> None:
        nonlocal seen_ok, compared
        if n in digests:
            compared += 1
            if view_digest(player_view(state, guest)) != digests[n]:
                seen_ok = False

    my_moves = dict(my_moves or {})
    not_mine: list[int] = []   # move numbers where the record holds a guest move not sent
    # ... where the host refused or ignored my first move there, then took another: (move
    # number, whether it was refused)
    vetoed: list[tuple[int, bool]] = []
    claimed = False            # the record says the guest resigned; it never sent that
    compare(0)
    for i, action in enumerate(checked["actions"]):
        if action.type == "resign":
            claimed = claimed or (action.player == guest and not i_resigned)
        elif state.to_move == guest:
            tried = my_moves.get(i) or []
            k = next((j for j, (mine, _refused) in enumerate(tried)
                      if _sent(state, guest, mine, action)), None)
            if k is None:
                if not (i in (timed_out or ()) and _timeout(state, guest, action)):
                    not_mine.append(i)
            elif k > 0:
                # the guest sends a second move at one position only after the first was
                # refused (it keeps an unanswered one across lost connections and reloads),
                # and an honest host refuses only illegal moves, which the guest never sends:
                # the first move sent is the one to record. (A refusal of a move sent AFTER
                # the recorded one is a stale resend whose answer was lost: fine.)
                vetoed.append((i, tried[0][1]))
        try:
            apply(state, action)
        except IllegalAction as e:
            rep.add("replay", False, str(IllegalRecordAction(i, e)))
            return rep
        compare(i + 1)
    rep.add("replay", state.over, "the replayed game is not over")
    rep.add("views", seen_ok and compared == len(digests),
            "a position I was shown differs from the replay" if not seen_ok
            else "the record is shorter than the game I saw")
    if not_mine:
        why = (f"{len(not_mine)} of my moves in the record are not what I chose "
               f"(first at move {not_mine[0] + 1})")
    elif vetoed and vetoed[0][1]:
        why = (f"the host refused a legal move of mine and recorded another I tried after it "
               f"({len(vetoed)} time(s), first at move {vetoed[0][0] + 1})")
    elif vetoed:
        why = (f"the host never answered a legal move of mine and recorded another I sent "
               f"after it ({len(vetoed)} time(s), first at move {vetoed[0][0] + 1})")
    else:
        why = ""
    rep.add("my moves", not not_mine and not vetoed, why)
    chain = moves_commits(host_secret, [a.to_json() for a in checked["actions"]])
    moves = dict(moves or {})
    wrong = sorted(n for n, c in moves.items() if n >= len(chain) or chain[n] != c)
    rep.add("host moves kept", not wrong and set(digests) <= set(moves),
            f"the record's moves are not the ones the host had committed to by move {wrong[0]}"
            " (it changed a hidden choice afterwards)" if wrong else
            "the host did not commit to its moves with every view")
    rep.add("how it ended", not claimed, CLAIMED)
    return rep


def _timeout(state, guest: int, action) -> bool:
    """Whether ``action`` is the one a time-out takes for the guest here (clock.py)."""
    from .clock import timeout_action
    return _sent(state, guest, timeout_action(player_view(state, guest)), action)


def _sent(state, guest: int, mine: dict | None, action) -> bool:
    """Whether ``action`` (from the record) is the view-form action the guest sent."""
    if mine is None:
        return False
    try:
        return action_from_view(state, guest, mine).to_json() == action.to_json()
    except MalformedAction:
        return False
