"""JSON text from outside (records, share links, peer and relay messages, saved games) read
with a bound on how deeply it nests.

Why: in the page, CPython's JSON parser runs on WebAssembly, whose native stack is small. A few
thousand nested brackets (a 100-byte share link decompresses to them) overflow it before
Python's recursion limit is reached; that is not a RecursionError but a fatal
"Maximum call stack size exceeded" that takes the whole Python runtime down. So the depth is
measured first, with regular expressions (no recursion, linear time), and JSON nested deeper
than any message of ours is refused as malformed.
"""

from __future__ import annotations

import json
import re

#: deeper than any record, view or message TriFront writes (a view nests about 8 deep)
MAX_DEPTH = 64

# one pass, left to right: a string (to its closing quote, or to the end of an unclosed one:
# a failed match at every quote would make the scan quadratic) or a bracket
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\Z)|[\[\]{}]', re.S)


class TooDeep(ValueError):
    """JSON text nested deeper than allowed (a ValueError, like json's own decode errors)."""


def depth(text: str) -> int:
    """How deeply the brackets of ``text`` nest, outside its strings (unbalanced text gives
    some number, which the parser then refuses). Linear time."""
    deepest = level = 0
    for token in _TOKEN.finditer(text):
        t = token.group()
        if t in "[{":
            level += 1
            deepest = max(deepest, level)
        elif t in "]}":
            level -= 1
    return deepest


def loads(text: str, max_depth: int = MAX_DEPTH, **kwargs):
    """``json.loads(text, **kwargs)`` for text from outside. Raises TooDeep when the text nests
    deeper than ``max_depth``, else whatever json.loads raises (ValueError, ...)."""
    if isinstance(text, (bytes, bytearray)):
        text = text.decode("utf-8")
    # the common case, in C: too few brackets to nest that deep
    if text.count("[") + text.count("{") > max_depth and depth(text) > max_depth:
        raise TooDeep(f"nested more than {max_depth} deep")
    return json.loads(text, **kwargs)
