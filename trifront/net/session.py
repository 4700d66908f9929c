"""What both ends of an online match share (host.py, guest.py). Sans-IO: no transport.

A session sends through whatever the transport gave it (``connected(send)``) and is told of
each message (``receive(text)``). Every message is checked by the session's side of the
protocol (protocol.to_host / to_guest) before anything reads it, then handled by the
session's ``_on_<type>`` method. A message that breaks the protocol, or whose handling
fails, never raises: it goes to ``_bad`` (the host refuses it, the guest ignores it) and into
the session's log. ``on_change(kind)`` tells the page to redraw.
"""

from __future__ import annotations

from collections.abc import Callable

from .protocol import ProtocolError, encode

#: lines kept in a session's log of refused or ignored messages
LOG_LINES = 200


class Session:
    """The shared part: the transport, the log, receiving, ping and pong."""

    def __init__(self, *, on_change: Callable[[str], None] | None = None,
                 log: Callable[[str], None] | None = None) -> None:
        self.on_change = on_change or (lambda kind: None)
        self.log_fn = log or (lambda text: None)
        self.send_fn: Callable[[str], None] | None = None
        self.log: list[str] = []

    # the side's own part of the protocol
    def _decode(self, text: object) -> dict:
        raise NotImplementedError

    def _bad(self, why: str) -> None:
        raise NotImplementedError

    def _admit(self) -> bool:
        """Whether to look at the next message at all (the host's rate limit)."""
        return True

    # ------------------------------------------------------------------------- transport

    @property
    def online(self) -> bool:
        return self.send_fn is not None

    def connected(self, send: Callable[[str], None]) -> None:
        self.send_fn = send

    def disconnected(self) -> None:
        self.send_fn = None

    def _send(self, t: str, **fields) -> None:
        if self.send_fn is not None:
            self.send_fn(encode(t, **fields))

    def _note(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-LOG_LINES]
        self.log_fn(line)

    def receive(self, text: object) -> None:
        """One message from the other page. Never raises."""
        if not self._admit():
            return
        try:
            msg = self._decode(text)
        except ProtocolError as e:
            self._bad(str(e))
            return
        try:
            getattr(self, "_on_" + msg["t"])(msg)
        except Exception as e:  # noqa: BLE001 - the other page must never break this one
            self._bad(self._failure(msg["t"], e))

    def _failure(self, kind: str, e: Exception) -> str:
        """What a failed handler is logged (and, by the host, answered) as: the exception's
        type only, since its text may name what this page holds."""
        return f"could not handle {kind}: {type(e).__name__}"

    def _on_ping(self, msg: dict) -> None:
        self._send("pong", k=msg["k"])

    def _on_pong(self, msg: dict) -> None:
        pass
