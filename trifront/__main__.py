"""Command line: ``python -m trifront replay FILE`` (RECORD.md "Replay from the command line").

Exit 0 with the summary JSON on stdout; 1 when an action is illegal (its index and rule on
stderr); 2 when the record is malformed or unreadable. Never a traceback.
"""

from __future__ import annotations

import json
import sys

from .record import IllegalRecordAction, MalformedRecord, parse, replay, summary

USAGE = "usage: python -m trifront replay FILE"


def one_line(message: str) -> str:
    """RECORD.md promises one line: fold any line break a record's text smuggled in."""
    return " ".join(message.splitlines())


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "replay":
        print(USAGE, file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        print(f"cannot read {argv[1]}: {e}", file=sys.stderr)
        return 2
    try:
        state = replay(parse(text))
    except MalformedRecord as e:
        print(one_line(f"malformed record: {e}"), file=sys.stderr)
        return 2
    except IllegalRecordAction as e:
        print(one_line(str(e)), file=sys.stderr)
        return 1
    print(json.dumps(summary(state)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
