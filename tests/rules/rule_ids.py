"""Rule ids as docs/RULES.md defines them and as the code cites them (R1 ... R7.3)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from tests.conftest import REPO_ROOT

RULES_MD = REPO_ROOT / "docs" / "RULES.md"

#: a rule id where it is cited: "R5", "R6.4", "R5.B2" (not "R5.B" or "R12")
CITED = re.compile(r"\bR[1-7](?:\.[A-D]?[0-9]+)?\b")
#: the same in a test's name: "test_R5_B2_..."
IN_NAME = re.compile(r"(?<=_)R([1-7])_([A-D]?[0-9]+)(?=_)")
#: where docs/RULES.md defines one: a heading "## R5 ..." or an item "- **R5.B2** ..."
DEFINED = re.compile(r"^(?:#+ |- \*\*)(R[1-7](?:\.[A-D]?[0-9]+)?)\b", re.M)


@cache
def rule_texts() -> dict[str, str]:
    """Each rule id of docs/RULES.md -> its text up to the next id, on one line."""
    text = RULES_MD.read_text(encoding="utf-8")
    marks = list(DEFINED.finditer(text))
    return {m.group(1): " ".join(text[m.start():marks[i + 1].start() if i + 1 < len(marks)
                                      else None].split())
            for i, m in enumerate(marks)}


def rules_ids() -> set[str]:
    return set(rule_texts())


def cited_in(paths) -> dict[str, set[str]]:
    """Rule id -> the files among `paths` that cite it."""
    out: dict[str, set[str]] = {}
    for path in paths:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        for rule in CITED.findall(text) + [f"R{a}.{b}" for a, b in IN_NAME.findall(text)]:
            out.setdefault(rule, set()).add(str(Path(path).relative_to(REPO_ROOT)))
    return out
