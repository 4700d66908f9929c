"""The CPU opponent as the page sees it: the "cpu" web worker, or the main thread if that fails.

The worker (trifront/ui/cpu_worker.py) exports ``choose(view_json, seed, strength)`` ->
{"action", "ms"} JSON, ``hint(view_json, seed, strength)`` -> {"action", "win", "ms"} JSON and
``draft(seed) -> effects JSON``, ``review(view_json, seed, played_json)`` -> one move of a
game's review. ``choose``'s answer also carries what the CPU knew (``belief``, kept until the
next move). If it does not start, does not answer in time, or raises, the
page says so (``status``) and computes on the main thread with the same AI from then on, or
until ``retry`` starts a new worker (the player's "Try again").
A worker that dies (closed, crashed) sends nothing, so a ready worker is pinged every
``BEAT_EVERY`` s, and silence for ``ANSWER_TIMEOUT`` s, to a ping or to a request, means it is
gone: the longest a live worker is busy is one Hard search (its 1.7 s cap, trifront/ai/cpu.py
BUDGETS), and the worker answers one message at a time (silence is counted from its last
answer to anything, so a request queued behind another is not silence). The page's error events for the
worker (``lost``) end it at once.
With ``slices=True`` (the page), a move asked for while the worker is still starting does
not wait for it: this thread searches, a slice of at most ``SLICE_S`` s per turn of the
browser's event loop (so a click still shows at once), with the same search and seed as the
worker (``local_choose_sliced``); the worker goes on starting for the moves after.
``think_ms`` keeps how long each CPU move took to compute (the worker's own measure, or this
thread's), newest last; ``think_its`` how many search iterations it ran (-1: not known). No browser imports here: the connection is passed in, so this runs on
CPython too.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Awaitable, Callable

from trifront.cards import GROUP_EFFECTS, GROUPS, check_effect_set


#: trifront.ai.cpu.STRENGTHS, written out so that the menu does not import the AI package at
#: start-up (~0.05-0.1 s of Pyodide imports; tests/ui/test_startup_imports.py checks they agree)
STRENGTHS = ("easy", "normal", "hard")


def strengths() -> tuple[str, ...]:
    """The CPU strengths the AI package offers (trifront.ai.cpu.STRENGTHS), weakest first."""
    return STRENGTHS


def supported(strength: str, offered: tuple[str, ...]) -> str:
    """``strength`` if offered, else the strongest offered one below it (else the weakest)."""
    if strength in offered:
        return strength
    order = ("easy", "normal", "hard")
    below = [s for s in offered if s in order and strength in order
             and order.index(s) < order.index(strength)]
    return below[-1] if below else offered[0]


def local_choose(view: dict, seed: int, strength: str = "easy") -> dict:
    """The CPU's move on this thread, through the entry point the worker runs
    (trifront.ai.cpu.choose_report): {"action", "iterations", "belief"}, the belief drawn
    from the worlds this very search used."""
    from trifront.ai import cpu
    return cpu.choose_report(json.dumps(view), seed, supported(strength, strengths()))


#: seconds of search per slice on the page's own thread (a task over ~0.1 s delays what a
#: click shows; bench/startup.py counts every task over 50 ms)
SLICE_S = 0.04

#: trifront.ai.cpu and what it imports, each after what it needs (``python -X importtime``):
#: imported one a slice, as the whole package at once holds the page for ~0.1-0.5 s
AI_MODULES = ("trifront.ai", "trifront.ai.facedown_table", "trifront.ai.facedown",
              "trifront.ai.determinize", "trifront.ai.greedy", "trifront.ai.eval_table",
              "trifront.ai.policy", "trifront.ai.opponent_table", "trifront.ai.infer",
              "trifront.ai.ismcts", "trifront.ai.review", "trifront.ai.draft_table",
              "trifront.ai.draft", "trifront.ai.cpu")


async def import_ai(sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
    """Import the AI package on this thread, a module a turn of the event loop."""
    import importlib
    import sys
    for name in AI_MODULES:
        if name not in sys.modules:
            importlib.import_module(name)
            await sleep(0)


async def local_choose_sliced(view: dict, seed: int, strength: str,
                              sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                              slice_s: float = SLICE_S) -> tuple[dict, float]:
    """``local_choose`` run in slices of about ``slice_s`` s of this thread, with ``sleep(0)``
    between them (the browser handles input and paints): (the same report, the ms it
    computed)."""
    await import_ai(sleep)
    from trifront.ai import cpu
    steps = cpu.choose_report_steps(json.dumps(view), seed, supported(strength, strengths()))
    computed = 0.0
    while True:
        began = time.perf_counter()
        try:
            next(steps)   # at least one step a slice
            while time.perf_counter() - began < slice_s:
                next(steps)
        except StopIteration as stop:
            computed += time.perf_counter() - began
            return stop.value, computed * 1000
        computed += time.perf_counter() - began
        await sleep(0)


def local_review(view: dict, seed: int, played: dict | None = None, state: str = "") -> dict:
    """One step of one move of a review on this thread (trifront.ai.cpu.review_step)."""
    from trifront.ai import cpu
    return json.loads(cpu.review_step(json.dumps(view), seed,
                                      json.dumps(played) if played else None, state or None))


def hint_strength(strength: str) -> str:
    """A hint searches at least at "normal" (greedy "easy" has no win estimate)."""
    return "hard" if strength == "hard" else "normal"


def local_hint(view: dict, seed: int, strength: str = "normal") -> dict:
    """A suggested action for the view's player and its estimated win chance, on this thread:
    {"action": ActionJSON (one of view["legal"]), "win": 0..1}."""
    from trifront.ai import cpu
    return json.loads(cpu.hint(json.dumps(view), seed, hint_strength(strength)))


def _move(raw) -> tuple[dict, float | None, int | None, dict | None]:
    """A worker's choose answer -> (action, ms, iterations, belief). Also takes a bare action
    (older workers)."""
    data = json.loads(str(raw))
    if isinstance(data, dict) and "type" not in data and isinstance(data.get("action"), dict):
        ms, its, belief = data.get("ms"), data.get("its"), data.get("belief")
        return (data["action"], float(ms) if isinstance(ms, (int, float)) else None,
                its if isinstance(its, int) and not isinstance(its, bool) else None,
                belief if isinstance(belief, dict) else None)
    return data, None, None, None


#: how many recent CPU think times ``CpuClient.think_ms`` keeps
THINK_KEEP = 400

#: seconds of silence after which a ready worker is taken for gone: a live one is busy at most
#: one search (Hard's cap, 1.7 s) before it answers, and a player waits ~5 s at most to hear
ANSWER_TIMEOUT = 3.0
#: seconds between two pings of a ready worker (so that a worker that died while the player
#: thinks is known before the CPU's turn)
BEAT_EVERY = 0.5


class WorkerLost(Exception):
    """The worker is gone (silent past ANSWER_TIMEOUT, or an error event said so)."""


def local_draft(seed: int, strength: str = "hard") -> dict[str, str]:
    """R2.3: the CPU's picks on this thread (uniform if the AI has no draft table)."""
    try:
        from trifront.ai import cpu
        return check_effect_set(json.loads(cpu.draft(seed, strength)))
    except (ImportError, AttributeError):
        rng = random.Random(seed)
        return {g: rng.choice(GROUP_EFFECTS[g]) for g in GROUPS}


class CpuClient:
    """Ask the CPU for a move. ``connect``: an async function returning the worker proxy
    (None: always the main thread). ``on_status(state, text)`` hears "ready"/"failed"."""

    def __init__(self, connect: Callable[[], Awaitable[object]] | None = None, *,
                 connect_timeout: float = 90.0, call_timeout: float = 60.0,
                 answer_timeout: float = ANSWER_TIMEOUT, beat_every: float | None = BEAT_EVERY,
                 on_status: Callable[[str, str], None] | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 slices: bool = False):
        self._connect = connect
        self._connect_timeout = connect_timeout
        self._call_timeout = call_timeout   # the first ping, while the worker boots
        self._answer_timeout = answer_timeout
        self._beat_every = beat_every       # None: no pings between requests
        self._beat: asyncio.Future | None = None
        self._gone: asyncio.Future | None = None   # set when the worker is lost
        self._heard = 0.0   # time.monotonic() of the worker's last answer to anything
        self._on_status = on_status or (lambda state, text: None)
        self._sleep = sleep
        self._slices = slices   # a move while the worker starts: this thread, in slices
        self._task: asyncio.Future | None = None
        self.worker = None
        self.failed = connect is None
        self.status = "local" if connect is None else "connecting"
        self.problem = ""
        self.worker_strengths: tuple[str, ...] = ()
        self.think_ms: list[float] = []   # each CPU move's compute time (ms), newest last
        # each CPU move's search iterations, as think_ms (-1: not known, or Easy: no search)
        self.think_its: list[int] = []
        # what the CPU knew and believed at its last move (trifront.ai.review.belief), or None
        self.belief: dict | None = None

    def start(self) -> None:
        """Begin connecting now (at boot), so the first CPU move does not wait for it."""
        if self._task is None and not self.failed:
            self._gone = asyncio.get_event_loop().create_future()
            self._task = asyncio.ensure_future(self._do_connect(self._gone))

    async def _do_connect(self, gone: asyncio.Future) -> None:
        try:
            worker = await asyncio.wait_for(self._connect(), self._connect_timeout)
            # a worker whose file failed still resolves (docs/TESTING.md): ask it something
            pong = await asyncio.wait_for(_call(worker.ping, json.dumps({"hello": "main"})),
                                          self._call_timeout)
            try:
                offered = tuple(json.loads(str(pong)).get("strengths") or ())
            except (ValueError, AttributeError):
                offered = ()
            self.worker_strengths = offered or strengths()
            if gone.done() or gone is not self._gone:   # lost while it booted
                return
            self.worker = worker
            self._heard = time.monotonic()
            self.status = "ready"
            self._on_status("ready", "CPU player ready (in its own worker)")
            if self._beat_every is not None:
                self._beat = asyncio.ensure_future(self._heartbeat(worker, self._gone))
        except Exception as exc:  # noqa: BLE001 - any failure means: use the main thread
            if gone is self._gone:
                self._fail(f"the CPU worker did not start ({_short(exc)})")

    async def _heartbeat(self, worker, gone: asyncio.Future) -> None:
        """Ping the ready worker every ``beat_every`` s until it is lost or replaced."""
        try:
            while not gone.done() and self.worker is worker:
                await self._ask(worker, "ping", json.dumps({"beat": 1}))
                await asyncio.wait([gone], timeout=self._beat_every)
        except WorkerLost:
            pass
        except Exception as exc:  # noqa: BLE001 - a ping that raises: the worker is broken
            self._fail(f"the CPU worker failed ({_short(exc)})")

    async def _ask(self, worker, name: str, *args):
        """``worker.<name>(*args)``'s answer; WorkerLost (and the client failed) when the
        worker is lost before it answers or stays silent ``answer_timeout`` s."""
        gone = self._gone
        if gone is None or gone.done() or worker is not self.worker:
            raise WorkerLost("the CPU worker is gone")
        call = asyncio.ensure_future(_call(getattr(worker, name), *args))
        asked = time.monotonic()
        while True:
            # silence is counted from the worker's last answer to anything (or this request):
            # a request queued behind another (a hint, then the CPU's move) is not silence
            left = max(self._heard, asked) + self._answer_timeout - time.monotonic()
            done, _ = await asyncio.wait([call, gone], timeout=max(left, 0.0),
                                         return_when=asyncio.FIRST_COMPLETED)
            if not done:
                # this thread may itself have been busy past the limit (a long render): an
                # answer already on its way gets one more turn of the loop
                done, _ = await asyncio.wait([call, gone], timeout=0.05,
                                             return_when=asyncio.FIRST_COMPLETED)
            if call in done:
                self._heard = time.monotonic()
                return call.result()
            if gone in done or max(self._heard, asked) + self._answer_timeout <= time.monotonic():
                break
            # the worker answered something else meanwhile (it is alive): wait on
        call.cancel()
        if not gone.done():
            self._fail(f"the CPU worker stopped answering (nothing for "
                       f"{self._answer_timeout:g} s)")
        raise WorkerLost(self.problem or "the CPU worker is gone")

    def lost(self, why: str) -> None:
        """The page saw the worker fail (an error event): use this thread from now on. Any
        request waiting for that worker gets its answer here."""
        if self.status in ("ready", "connecting") and self._connect is not None:
            self._fail(f"the CPU worker failed ({why})")

    def retry(self) -> bool:
        """Start the worker again after it failed (a new worker: ``connect`` is called once
        more). False, and nothing changes, when there is no worker to retry: never had one
        (``connect`` None), or not failed. Until it answers, moves wait for it (``ready``)."""
        if self._connect is None or not self.failed:
            return False
        self.failed = False
        self.worker = None
        self.problem = ""
        self.status = "connecting"
        self._task = None
        self._on_status("connecting", "Starting the CPU player again…")
        self.start()
        return True

    def _fail(self, why: str) -> None:
        if self.failed:
            return
        self.failed = True
        self.worker = None
        if self._gone is not None and not self._gone.done():
            self._gone.set_result(why)   # wakes the requests and the heartbeat waiting on it
        self.status = "failed"
        self.problem = why
        self._on_status("failed", f"{why[0].upper()}{why[1:]}; the CPU thinks on this page")

    async def ready(self) -> bool:
        if self.failed:
            return False
        self.start()
        if self._task is not None and not self._task.done():
            # a worker lost while it boots (lost) need not be waited for
            await asyncio.wait([self._task, self._gone], return_when=asyncio.FIRST_COMPLETED)
        return self.worker is not None and not self.failed

    async def choose(self, view: dict, seed: int, strength: str = "easy") -> dict:
        """An action (view-form JSON dict) for the player whose view this is."""
        if self._slices and self.status == "connecting":
            self.start()
            report, ms = await local_choose_sliced(view, seed, strength, self._sleep)
            self._thought(ms, report["iterations"])
            self.belief = report["belief"]
            return report["action"]
        if await self.ready():
            try:
                start = time.perf_counter()
                raw = await self._ask(self.worker, "choose", json.dumps(view), seed,
                                      supported(strength, self.worker_strengths))
                action, ms, its, self.belief = _move(raw)
                self._thought(ms if ms is not None else (time.perf_counter() - start) * 1000,
                              its)
                return action
            except Exception as exc:  # noqa: BLE001
                self._fail(f"the CPU worker failed ({_short(exc)})")
        await self._sleep(0.05)  # let the page paint "thinking…" before this thread is busy
        start = time.perf_counter()
        report = local_choose(view, seed, strength)
        self._thought((time.perf_counter() - start) * 1000, report["iterations"])
        self.belief = report["belief"]
        return report["action"]

    def _thought(self, ms: float, its: int | None = None) -> None:
        self.think_ms.append(round(float(ms), 1))
        del self.think_ms[:-THINK_KEEP]
        self.think_its.append(-1 if its is None else its)
        del self.think_its[:-THINK_KEEP]

    async def hint(self, view: dict, seed: int, strength: str = "normal") -> dict:
        """What the CPU would play in this player's place, and that player's estimated
        chance to win: {"action": ActionJSON (one of view["legal"]), "win": 0..1}.
        Searches at ``hint_strength(strength)``; falls back to this thread like ``choose``."""
        strength = hint_strength(strength)
        if await self.ready():
            try:
                raw = await self._ask(self.worker, "hint", json.dumps(view), seed,
                                      supported(strength, self.worker_strengths))
                data = json.loads(str(raw))
                return {"action": data["action"], "win": float(data["win"])}
            except Exception as exc:  # noqa: BLE001
                self._fail(f"the CPU worker failed ({_short(exc)})")
        await self._sleep(0.05)  # let the page paint "thinking…" before this thread is busy
        return local_hint(view, seed, strength)

    async def review(self, view: dict, seed: int, played: dict | None = None) -> dict:
        """One move of a game's review on that player's view: {"estimate": 0..1 with the
        best move, "best": ActionJSON, "played_estimate": 0..1 with ``played``, "error", ...,
        "ms"} (trifront.ai.cpu.review_move), asked step by step (``review_step``: each answer
        comes well within the worker's silence limit); falls back to this thread like
        ``choose``, from the step it had reached."""
        view_json, played_json = json.dumps(view), json.dumps(played) if played else ""
        state, ms = "", 0.0
        while True:
            out = None
            if await self.ready():
                try:
                    raw = await self._ask(self.worker, "review", view_json, seed, played_json,
                                          state)
                    out = json.loads(str(raw))
                except Exception as exc:  # noqa: BLE001
                    self._fail(f"the CPU worker failed ({_short(exc)})")
            if out is None:
                await self._sleep(0.05)  # the page paints the progress before this thread works
                start = time.perf_counter()
                out = local_review(view, seed, played, state)
                out["ms"] = round((time.perf_counter() - start) * 1000, 1)
            ms += float(out.get("ms") or 0.0)
            if out.get("done"):
                answer = dict(out["answer"])
                answer["ms"] = round(ms, 1)
                return answer
            state = json.dumps(out["state"])

    async def draft(self, seed: int, strength: str = "hard") -> dict[str, str]:
        """R2.3: the CPU's four picks at `strength`."""
        if self._slices and self.status == "connecting":   # a table look-up: no need to wait
            self.start()
            await import_ai(self._sleep)
            return local_draft(seed, strength)
        if await self.ready():
            try:
                raw = await self._ask(self.worker, "draft", seed, strength)
                return check_effect_set(json.loads(str(raw)))
            except Exception as exc:  # noqa: BLE001
                self._fail(f"the CPU worker failed ({_short(exc)})")
        return local_draft(seed, strength)


async def _call(fn, *args):
    result = fn(*args)
    if hasattr(result, "__await__"):
        result = await result
    return result


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:160]
