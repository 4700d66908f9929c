"""The table's sounds: what to play when a view changes, and playing it with WebAudio.

Every sound is made here from a few oscillator tones (nothing is fetched: the page works
offline and ships no audio files). ``cues(before, after)`` is pure: it compares two views of
the same player and names what happened (a card played face-up or face-down, a card turned, a
draw, a pass, lanes won and lost, the game won or lost). ``Sound`` plays cues unless muted,
and not before the player's first click: browsers refuse to start audio earlier (autoplay).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tone:
    freq: float                 # Hz at the start
    dur: float                  # seconds
    to: float | None = None     # Hz at the end (a glide), or steady
    wave: str = "sine"          # an OscillatorNode type
    gain: float = 0.18          # peak loudness, 0..1
    at: float = 0.0             # start, seconds after the cue's start


#: Each cue a short figure of tones; a cue is over within 0.6 s (the game never waits on it).
SOUNDS: dict[str, tuple[Tone, ...]] = {
    "play": (Tone(520, 0.07, 380, "triangle", 0.22), Tone(190, 0.09, 120, "sine", 0.2, 0.01)),
    "facedown": (Tone(150, 0.10, 95, "sine", 0.22), Tone(300, 0.05, 200, "triangle", 0.08)),
    "flip": (Tone(420, 0.06, 880, "triangle", 0.16), Tone(880, 0.06, 1320, "sine", 0.1, 0.05)),
    "draw": (Tone(900, 0.08, 1500, "sine", 0.07), Tone(1200, 0.06, 1900, "sine", 0.05, 0.05)),
    "pass": (Tone(392, 0.11, None, "sine", 0.14), Tone(294, 0.16, None, "sine", 0.14, 0.1)),
    "lane_won": (Tone(523, 0.09, None, "triangle", 0.16), Tone(784, 0.14, None, "triangle",
                                                                0.16, 0.08)),
    "lane_lost": (Tone(330, 0.1, None, "sine", 0.14), Tone(247, 0.16, None, "sine", 0.14, 0.09)),
    "game_won": tuple(Tone(f, 0.16 if i < 3 else 0.26, None, "triangle", 0.17, i * 0.11)
                      for i, f in enumerate((523, 659, 784, 1047))),
    # the move clock's last ten seconds, one a second: short and dry, under the table's sounds
    "tick": (Tone(1760, 0.03, None, "square", 0.05),),
    "game_lost": tuple(Tone(f, 0.2 if i < 2 else 0.26, None, "sine", 0.15, i * 0.16)
                       for i, f in enumerate((392, 311, 262))),
}

#: seconds between the cues of one change (the three lanes of a round's result)
GAP = 0.16


def _board_faces(view: dict) -> dict[int, str]:
    """Card id -> face of every card on the board this player can identify."""
    faces = {}
    for lane in view.get("lanes") or []:
        for side in lane.get("sides") or []:
            for card in side:
                if isinstance(card, dict) and card.get("id") is not None:
                    faces[card["id"]] = card.get("face")
    return faces


def _same_game(before: dict, after: dict) -> bool:
    return (before.get("me") == after.get("me") and before.get("effects") == after.get("effects")
            and len(before.get("history") or []) <= len(after.get("history") or []))


def cues(before: dict | None, after: dict) -> list[str]:
    """What to play for the step from ``before`` to ``after`` (two views of one player; no
    ``before``: the game just began, nothing to play). Pure."""
    if not before or not _same_game(before, after):
        return []
    me = after.get("me")
    out: list[str] = []
    history = after.get("history") or []
    for entry in history[len(before.get("history") or []):]:
        action = entry.get("action") or {}
        kind = action.get("type")
        if kind == "pass":
            out.append("pass")
        elif kind == "play":
            out.append("facedown" if action.get("face") == "down" else "play")
        elif kind == "discard":
            out.append("play")
    was = _board_faces(before)
    if any(was.get(cid) == "down" and face == "up" for cid, face in _board_faces(after).items()):
        out.append("flip")
    rounds_before = len(before.get("rounds") or [])
    decks_before, decks_after = before.get("decks") or [], after.get("decks") or []
    same_round = len(after.get("rounds") or []) == rounds_before
    if (same_round and isinstance(me, int) and len(decks_before) > me and len(decks_after) > me
            and decks_after[me] < decks_before[me]):
        out.append("draw")
    for result in (after.get("rounds") or [])[rounds_before:]:
        for winner in result.get("winners") or []:
            if winner is not None:
                out.append("lane_won" if winner == me else "lane_lost")
    if after.get("over") and not before.get("over"):
        out.append("game_won" if after.get("winner") == me else "game_lost")
    return out


class WebAudio:
    """Plays tones through one AudioContext, made at the first click (browsers keep a context
    made earlier suspended)."""

    def __init__(self) -> None:
        self.ctx = None

    def unlock(self) -> None:
        if self.ctx is None:
            from js import window   # Pyodide only: the module imports on CPython
            maker = getattr(window, "AudioContext", None) or getattr(window, "webkitAudioContext",
                                                                      None)
            if maker is None:
                return
            self.ctx = maker.new()
        if str(self.ctx.state) == "suspended":
            self.ctx.resume()

    def tones(self, tones: tuple[Tone, ...], delay: float) -> None:
        ctx = self.ctx
        if ctx is None:
            return
        start = ctx.currentTime + 0.01 + delay
        for t in tones:
            osc, env = ctx.createOscillator(), ctx.createGain()
            osc.type = t.wave
            at = start + t.at
            osc.frequency.setValueAtTime(t.freq, at)
            if t.to:
                osc.frequency.exponentialRampToValueAtTime(t.to, at + t.dur)
            env.gain.setValueAtTime(0.0001, at)
            env.gain.exponentialRampToValueAtTime(t.gain, at + min(0.012, t.dur / 3))
            env.gain.exponentialRampToValueAtTime(0.0001, at + t.dur)
            osc.connect(env)
            env.connect(ctx.destination)
            osc.start(at)
            osc.stop(at + t.dur + 0.02)


class Sound:
    """The page's sound service: ``play(names)`` unless muted or before the first click."""

    def __init__(self, out=None, muted: bool = False) -> None:
        self.out = out if out is not None else WebAudio()
        self.muted = muted
        self.unlocked = False
        self.played: list[str] = []     # every cue played, in order (tests, the page's data-sound)

    def unlock(self) -> None:
        """The player clicked: audio may start from now on (asked at every click: a context
        made or resumed outside a click, say by a replayed early click, stays suspended)."""
        try:
            self.out.unlock()
            self.unlocked = True
        except Exception:  # noqa: BLE001 - no audio device or API: the game goes on silent
            self.unlocked = False

    def play(self, names: list[str]) -> None:
        if self.muted or not self.unlocked:
            return
        for i, name in enumerate(n for n in names if n in SOUNDS):
            try:
                self.out.tones(SOUNDS[name], i * GAP)
            except Exception:  # noqa: BLE001 - a sound that fails is a sound not heard
                return
            self.played.append(name)
