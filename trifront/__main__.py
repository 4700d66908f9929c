"""Command line: ``python -m trifront replay FILE`` (RECORD.md "Replay from the command line").

Exit 0 with the summary JSON on stdout; 1 when an action is illegal (its index and rule on
stderr); 2 when the record is malformed, unreadable or too big, or the summary cannot be
written. Never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys

from .record import IllegalRecordAction, MalformedRecord, parse, replay, summary
from .replay import MAX_TEXT
# a front end, as the page is: its messages name effects in the text catalogue's English
from .ui import i18n as _words  # noqa: F401


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
        text = read_record(path)
    except (OSError, UnicodeDecodeError, TooBig) as e:
        say(f"cannot read {path}: {e}")
        return 2
    try:
        state = replay(parse(text))
    except MalformedRecord as e:
        say(f"malformed record: {e}")
        return 2
    except IllegalRecordAction as e:
        say(str(e))
        return 1
    except (MemoryError, RecursionError):
        say("malformed record: too large or too deep to replay")
        return 2
    out = sys.stdout
    if out is None:            # started with stdout closed (`>&-`): Python gives None
        say("cannot write the summary: standard output is closed")
        return 2
    try:
        out.write(json.dumps(summary(state)) + "\n")
        out.flush()
    except (OSError, ValueError) as e:   # closed or full: not an illegal action (exit 1)
        say(f"cannot write the summary: {e}")
        return 2
    return 0


class TooBig(ValueError):
    """The file is larger than any record can be."""


def read_record(path: str) -> str:
    """The file's text, read no further than MAX_TEXT bytes and one more: a huge file (or
    /dev/zero) is refused without holding it in memory."""
    with open(path, "rb") as f:
        data = f.read(MAX_TEXT + 1)
    if len(data) > MAX_TEXT:
        raise TooBig(f"too big to be a record (over {MAX_TEXT:,} bytes)")
    return data.decode("utf-8")


def say(message: str) -> None:
    """One line on stderr, if there is a stderr to write to."""
    if sys.stderr is not None:
        try:
            print(one_line(message), file=sys.stderr)
        except (OSError, ValueError):
            pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
