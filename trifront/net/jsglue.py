"""Browser callbacks and background tasks for the transports (Pyodide only: link.py and
nostr_link.py). A failure inside a network event or a task is logged to the console, never
raised into the page: a broken or hostile peer must not break the game."""

from __future__ import annotations

import asyncio

from js import console
from pyodide.ffi import create_proxy


def guarded_proxy(fn, keep: list, label: str):
    """A JS-callable proxy of ``fn`` that logs (as ``label``) instead of raising; it is
    appended to ``keep``, whose owner destroys the proxies when their object goes."""
    def guarded(*args):
        try:
            return fn(*args)
        except Exception as e:  # noqa: BLE001 - a network event never breaks the page
            console.warn(f"{label}: {type(e).__name__}: {e}")
    p = create_proxy(guarded)
    keep.append(p)
    return p


def spawn_logged(coro, label: str) -> None:
    """Run ``coro`` in the background; an exception is logged (as ``label``), not raised."""
    async def run():
        try:
            await coro
        except Exception as e:  # noqa: BLE001
            console.warn(f"{label}: {type(e).__name__}: {e}")
    keep(asyncio.ensure_future(run()))


def destroy_proxies(keep: list) -> None:
    """Destroy the proxies ``guarded_proxy`` appended to ``keep`` (one already gone is
    passed over) and empty the list."""
    for p in keep:
        try:
            p.destroy()
        except Exception:  # noqa: BLE001 - a proxy already destroyed
            pass
    keep.clear()


def close_sockets(sockets: dict) -> None:
    """Close every WebSocket in ``sockets`` (their handlers dropped first, so a late event
    calls nothing) and empty it."""
    for ws in list(sockets.values()):
        ws.onopen = ws.onmessage = ws.onclose = None
        try:
            ws.close()
        except Exception:  # noqa: BLE001 - a socket already gone
            pass
    sockets.clear()


#: tasks started and not yet done: the event loop holds only a weak reference to a task, so
#: one nobody holds may be collected before it finishes
_RUNNING: set = set()


def keep(task):
    """Hold ``task`` until it is done; returns it."""
    _RUNNING.add(task)
    task.add_done_callback(_RUNNING.discard)
    return task
