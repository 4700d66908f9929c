"""Worker side of the API probe (named worker "probe")."""

import asyncio
import json
import time

from pyscript import RUNNING_IN_WORKER


def echo(value):
    """Return what arrived: its Python type name and its value as JSON-able data."""
    kind = type(value).__name__
    if hasattr(value, "to_py"):
        value = value.to_py()
    return json.dumps({"type": kind, "value": value, "in_worker": RUNNING_IN_WORKER})


def give_dict():
    return {"a": [1, 2], "b": {"c": None}}


def fail(message):
    raise ValueError(message)


def busy(ms):
    """Burn CPU for `ms` milliseconds (the page must stay responsive meanwhile)."""
    end = time.perf_counter() + ms / 1000
    n = 0
    while time.perf_counter() < end:
        n += 1
    return n


async def later(ms, tag):
    await asyncio.sleep(ms / 1000)
    return tag


def touch_document():
    try:
        from pyscript import document
        return f"ok: {document.title}"
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {exc}"


async def call_main(x):
    """Call a function the main thread registered on the worker's `sync`."""
    from pyscript import sync
    try:
        result = sync.double(x)
        awaitable = hasattr(result, "then") or hasattr(result, "__await__")
        if awaitable:
            result = await result
        return f"ok: {result} (awaitable: {awaitable})"
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {exc}"


__export__ = ["echo", "give_dict", "fail", "busy", "later", "touch_document", "call_main"]
