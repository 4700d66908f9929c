"""trifront/jsontext.py: JSON from outside is refused when it nests deeper than MAX_DEPTH, before
the parser recurses (in the page a few thousand levels overflow WebAssembly's stack and kill
the Python runtime)."""

from __future__ import annotations

import base64
import json
import zlib

import pytest

from trifront import jsontext
from trifront.game import Game
from trifront.net.protocol import ProtocolError, decode
from trifront.net.sealed_match import SCHEMA
from trifront.record import MalformedRecord, parse
from trifront.replay import ReplayError, decode_record, record_from_text

DEEP_OBJECT = '{"a":' * 5000 + "1" + "}" * 5000
DEEP_LIST = "[" * 100_000 + "]" * 100_000


def link_code(text: str) -> str:
    return base64.urlsafe_b64encode(zlib.compress(text.encode(), 9)).decode().rstrip("=")


def test_depth_counts_brackets_outside_strings_only():
    assert jsontext.depth('{"a": [1, {"b": []}]}') <= 4
    assert jsontext.depth(json.dumps({"s": "[" * 500 + "{" * 500})) <= 1
    assert jsontext.depth(json.dumps({"s": 'x\\"[[[' * 100})) <= 1   # escaped quotes
    assert jsontext.depth(DEEP_LIST) == 100_000


def test_ordinary_json_parses_and_deep_json_is_refused_as_a_value_error():
    record = Game.new(seed=3).record()
    assert jsontext.loads(json.dumps(record)) == record
    for deep in (DEEP_OBJECT, DEEP_LIST, DEEP_LIST.encode()):
        with pytest.raises(jsontext.TooDeep):
            jsontext.loads(deep)
        with pytest.raises(ValueError):
            jsontext.loads(deep)


@pytest.mark.parametrize("deep", [DEEP_OBJECT, DEEP_LIST])
def test_every_door_refuses_deep_json_with_its_own_error(deep):
    with pytest.raises(ReplayError, match="damaged"):
        decode_record(link_code(deep))
    with pytest.raises(ReplayError):
        record_from_text("http://x/#replay=" + link_code(deep))
    with pytest.raises(ReplayError, match="nested too deeply"):
        record_from_text("{" + deep[1:] if deep.startswith("{") else '{"a":' + deep + "}")
    with pytest.raises(MalformedRecord, match="nested"):
        parse(deep)
    with pytest.raises(ProtocolError, match="not JSON"):
        decode('{"t":"act","a":' + deep[:6000] + "}", SCHEMA, 8 * 1024)


def test_an_unclosed_string_is_one_token_to_the_end_of_the_text():
    """A string pattern that failed at every unclosed quote rescanned the
    rest of the text each time: quadratic, 51 s for a 204-character share link. The token
    pattern now takes an unclosed string to the end in one match, so the scan is one pass
    (bench-free check of the property; 1 M escaped quotes take ~0.1 s)."""
    assert jsontext._TOKEN.fullmatch('"abc \\" [[[') is not None
    hostile = '["' + '\\"' * 100_000 + "[" * 70
    assert len(list(jsontext._TOKEN.finditer(hostile))) == 2     # "[" and the open string
    assert jsontext.depth(hostile) == 1
    with pytest.raises(ValueError):
        jsontext.loads(hostile)


def test_max_depth_is_the_callers_bound():
    assert jsontext.loads("[{},{},{},{},{},{},{},{},{}]", max_depth=8) == [{}] * 9
    with pytest.raises(jsontext.TooDeep):
        jsontext.loads("[[[[[[[[[1]]]]]]]]]", max_depth=8)
