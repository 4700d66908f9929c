"""Command line: ``python -m trifront replay FILE`` (RECORD.md "Replay from the command line").

Exit 0 with the summary JSON on stdout; 1 when an action is illegal (its index and rule on
stderr); 2 when the record is malformed or unreadable. Never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys

from .record import IllegalRecordAction, MalformedRecord, parse, replay, summary



def parser() -> argparse.ArgumentParser:
    """``--help`` at either level explains itself and exits 0; a wrong call exits 2."""
    top = argparse.ArgumentParser(
        prog="python -m trifront",
        description="TriFront from the command line. The game itself is a web page: "
                    "see the README (scripts/play).")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    replay_cmd = commands.add_parser(
        "replay", help="replay a game record and print the final state as JSON",
        description="Replay a game record (RECORD.md) and print the state after its last "
                    "action as one JSON object. Exit 1: an action is illegal (its index and "
                    "rule on stderr). Exit 2: the record is malformed or unreadable.")
    replay_cmd.add_argument("file", metavar="FILE", help="the record, a JSON file")
    return top


def one_line(message: str) -> str:
    """RECORD.md promises one line: fold any line break a record's text smuggled in."""
    return " ".join(message.splitlines())


def main(argv: list[str]) -> int:
    try:
        path = parser().parse_args(argv).file
    except SystemExit as e:  # argparse has printed the help (0) or the usage error (2)
        return e.code if isinstance(e.code, int) else 2
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        print(f"cannot read {path}: {e}", file=sys.stderr)
        return 2
    try:
        state = replay(parse(text))
    except MalformedRecord as e:
        print(one_line(f"malformed record: {e}"), file=sys.stderr)
        return 2
    except IllegalRecordAction as e:
        print(one_line(str(e)), file=sys.stderr)
        return 1
    try:
        print(json.dumps(summary(state)))
        sys.stdout.flush()
    except OSError as e:       # stdout closed or full: not an illegal action (exit 1)
        print(one_line(f"cannot write the summary: {e}"), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
