"""The CPU opponent as the page sees it: the "cpu" web worker, or the main thread if that fails.

The worker (trifront/ui/cpu_worker.py) exports ``choose(view_json, seed) -> action JSON`` and
``draft(seed) -> effects JSON``. If it does not start, does not answer in time, or raises, the
page says so (``status``) and computes on the main thread with the same AI from then on.
No browser imports here: the connection is passed in, so this runs on CPython too.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable

from trifront.cards import GROUP_EFFECTS, GROUPS, check_effect_set


def strengths() -> tuple[str, ...]:
    """The CPU strengths the AI package offers (trifront.ai.cpu.STRENGTHS), weakest first."""
    try:
        from trifront.ai.cpu import STRENGTHS
        return tuple(STRENGTHS) or ("easy",)
    except ImportError:
        return ("easy",)


def supported(strength: str, offered: tuple[str, ...]) -> str:
    """``strength`` if offered, else the strongest offered one below it (else the weakest)."""
    if strength in offered:
        return strength
    order = ("easy", "normal", "hard")
    below = [s for s in offered if s in order and strength in order
             and order.index(s) < order.index(strength)]
    return below[-1] if below else offered[0]


def local_choose(view: dict, seed: int, strength: str = "easy") -> dict:
    """The CPU on this thread: the same entry point the worker runs (trifront.ai.cpu)."""
    try:
        from trifront.ai import cpu
    except ImportError:  # an older AI package: the greedy baseline
        from trifront.ai.greedy import choose_action
        return choose_action(view, seed)
    return json.loads(cpu.choose(json.dumps(view), seed, supported(strength, strengths())))


def local_draft(seed: int) -> dict[str, str]:
    """R2.3: the CPU's picks on this thread (uniform if the AI has no draft table)."""
    try:
        from trifront.ai import cpu
        return check_effect_set(json.loads(cpu.draft(seed)))
    except (ImportError, AttributeError):
        rng = random.Random(seed)
        return {g: rng.choice(GROUP_EFFECTS[g]) for g in GROUPS}


class CpuClient:
    """Ask the CPU for a move. ``connect``: an async function returning the worker proxy
    (None: always the main thread). ``on_status(state, text)`` hears "ready"/"failed"."""

    def __init__(self, connect: Callable[[], Awaitable[object]] | None = None, *,
                 connect_timeout: float = 90.0, call_timeout: float = 60.0,
                 on_status: Callable[[str, str], None] | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep):
        self._connect = connect
        self._connect_timeout = connect_timeout
        self._call_timeout = call_timeout
        self._on_status = on_status or (lambda state, text: None)
        self._sleep = sleep
        self._task: asyncio.Future | None = None
        self.worker = None
        self.failed = connect is None
        self.status = "local" if connect is None else "connecting"
        self.problem = ""
        self.worker_strengths: tuple[str, ...] = ()

    def start(self) -> None:
        """Begin connecting now (at boot), so the first CPU move does not wait for it."""
        if self._task is None and not self.failed:
            self._task = asyncio.ensure_future(self._do_connect())

    async def _do_connect(self) -> None:
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
            self.worker = worker
            self.status = "ready"
            self._on_status("ready", "CPU player ready (in its own worker)")
        except Exception as exc:  # noqa: BLE001 - any failure means: use the main thread
            self._fail(f"the CPU worker did not start ({_short(exc)})")

    def _fail(self, why: str) -> None:
        if self.failed:
            return
        self.failed = True
        self.worker = None
        self.status = "failed"
        self.problem = why
        self._on_status("failed", f"{why[0].upper()}{why[1:]}; the CPU thinks on this page")

    async def ready(self) -> bool:
        if self.failed:
            return False
        self.start()
        if self._task is not None:
            await self._task
        return self.worker is not None

    async def choose(self, view: dict, seed: int, strength: str = "easy") -> dict:
        """An action (view-form JSON dict) for the player whose view this is."""
        if await self.ready():
            try:
                raw = await asyncio.wait_for(
                    _call(self.worker.choose, json.dumps(view), seed,
                          supported(strength, self.worker_strengths)),
                    self._call_timeout)
                return json.loads(str(raw))
            except Exception as exc:  # noqa: BLE001
                self._fail(f"the CPU worker failed ({_short(exc)})")
        await self._sleep(0.05)  # let the page paint "thinking…" before this thread is busy
        return local_choose(view, seed, strength)

    async def draft(self, seed: int) -> dict[str, str]:
        """R2.3: the CPU's four picks."""
        if await self.ready():
            try:
                raw = await asyncio.wait_for(_call(self.worker.draft, seed), self._call_timeout)
                return check_effect_set(json.loads(str(raw)))
            except Exception as exc:  # noqa: BLE001
                self._fail(f"the CPU worker failed ({_short(exc)})")
        return local_draft(seed)


async def _call(fn, *args):
    result = fn(*args)
    if hasattr(result, "__await__"):
        result = await result
    return result


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:160]
