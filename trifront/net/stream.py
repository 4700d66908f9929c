"""One ordered, exactly-once message stream over two paths (pure; trifront/net/link.py).

A match's messages may travel the direct path (the WebRTC data channel) or the fallback path
(the relay, end-to-end encrypted: trifront/net/e2e.py), and move from one to the other when a
path opens or breaks. The game protocol above (host and guest sessions) must see each message
once and in order all the same, so the link numbers them: each message is cut into chunks,
each chunk is a numbered data frame, the receiver delivers frames in number order (holding
early ones, dropping repeats) and acknowledges what it has. The sender keeps what is not
acknowledged and sends it again on the path in use when the path changes or no
acknowledgement came for a while; a repeat is harmless. Frames are text:

  "d<n>:<more>:<text>"   data frame n (1, 2, ...); more=1: the message goes on in frame n+1
  "a<n>"                 every data frame up to n has arrived
  "p"                    keep-alive (the direct path sends one every second: a path that
                         says nothing for a few seconds is taken for broken)

No JSON around the text: a chunk of a 40 KiB view is not escaped again.
"""

from __future__ import annotations

from collections import deque

CHUNK = 8 * 1024            # bytes of text in one data frame (the relay takes 12 KiB, base64'd)
MAX_AHEAD = 512             # frames held that arrived before an earlier one
MAX_MESSAGE = 1024 * 1024   # characters of one message put back together (a view is <= 512 KiB)
MAX_UNACKED = 4096          # frames kept for sending again (a game sends a few hundred)


def chunks(text: str, size: int = CHUNK) -> list[str]:
    """``text`` cut into pieces of at most ``size`` UTF-8 bytes (never inside a character)."""
    out, start = [], 0
    while start < len(text):
        end = min(len(text), start + size)
        while len(text[start:end].encode("utf-8", "surrogatepass")) > size:
            end = start + max(1, (end - start) // 2)
        out.append(text[start:end])
        start = end
    return out or [""]


class Stream:
    """One side's stream for one pairing. ``send`` gives the frames to send now; ``receive``
    takes one frame and gives the whole messages it completes, in order. ``chunk``: bytes of
    text in one data frame (a path with smaller messages, such as Nostr events, wants less)."""

    def __init__(self, chunk: int = CHUNK) -> None:
        self.chunk = chunk
        self.sent = 0                    # the last data frame number given out
        self.unacked: deque[tuple[int, str]] = deque()
        self.next = 1                    # the data frame number to deliver next
        self.ahead: dict[int, tuple[bool, str]] = {}
        self.parts: list[str] = []       # chunks of the message being put back together
        self.size = 0
        self.ack_due = False             # data arrived since our last acknowledgement
        self.dropped = 0                 # frames refused (malformed, too far ahead, too big)

    # ------------------------------------------------------------------------- sending

    def send(self, text: str) -> list[str]:
        pieces = chunks(text, self.chunk)
        frames = []
        for i, piece in enumerate(pieces):
            self.sent += 1
            frame = f"d{self.sent}:{int(i < len(pieces) - 1)}:{piece}"
            frames.append(frame)
            self.unacked.append((self.sent, frame))
        while len(self.unacked) > MAX_UNACKED:   # a peer that never acknowledges
            self.unacked.popleft()
        return frames

    def pending(self) -> list[str]:
        """The frames not yet acknowledged, oldest first (to send again on a new path)."""
        return [frame for _n, frame in self.unacked]

    def ack(self) -> str | None:
        """An acknowledgement to send, when data arrived since the last one."""
        if not self.ack_due:
            return None
        self.ack_due = False
        return f"a{self.next - 1}"

    # ----------------------------------------------------------------------- receiving

    def receive(self, frame: object) -> list[str]:
        if not isinstance(frame, str) or not frame:
            self.dropped += 1
            return []
        kind = frame[0]
        if kind == "p":
            return []
        if kind == "a":
            n = _number(frame[1:])
            if n is None or n > self.sent:
                self.dropped += 1
                return []
            while self.unacked and self.unacked[0][0] <= n:
                self.unacked.popleft()
            return []
        head = frame[1:].split(":", 2)
        n = _number(head[0]) if kind == "d" and len(head) == 3 else None
        if not n or head[1] not in ("0", "1"):
            self.dropped += 1
            return []
        self.ack_due = True
        if n < self.next or n in self.ahead:
            return []                                # a repeat
        if n - self.next >= MAX_AHEAD:
            self.dropped += 1
            return []
        self.ahead[n] = (head[1] == "1", head[2])
        out = []
        while self.next in self.ahead:
            more, piece = self.ahead.pop(self.next)
            self.next += 1
            self.size += len(piece)
            if self.size <= MAX_MESSAGE:
                self.parts.append(piece)
            if not more:
                if self.size <= MAX_MESSAGE:
                    out.append("".join(self.parts))
                else:
                    self.dropped += 1
                self.parts, self.size = [], 0
        return out


def _number(text: str) -> int | None:
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        return None
    return int(text)
