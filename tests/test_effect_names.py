"""An effect is its record: outside the records (trifront/effects/), the registry
(cards.py), the text catalogues, the tutorial's script and the generated tables, no module
names an effect id, in a string, a name or an attribute (docstrings and comments may say
what they are about). Read from the source with ast.

NOT_YET lists the modules that still do, with the ids they name: an entry may only shrink
(the test fails when a module names an id it does not list, and when one listed is gone, so
the list stays true)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from trifront.cards import EFFECTS

ROOT = Path(__file__).resolve().parent.parent
EXEMPT = ("trifront/effects/", "trifront/cards.py", "trifront/ui/i18n.py",
          "trifront/ui/tutorial.py")

#: module -> the effect ids it still names (the R4.5 restrictions' reason codes and text
#: keys, R5.D6's board-only change on a card, the tunables' names and a tuned parameter)
NOT_YET = {
    "trifront/ai/determinize.py": {"captain"},
    "trifront/ai/policy.py": {"general"},
    "trifront/constants.py": {"ambush", "archers", "black_market", "cavalry", "general",
                              "gunners", "spy"},
    "trifront/partial.py": {"assault", "captain"},
    "trifront/power.py": {"captain"},
    "trifront/reasons.py": {"assault", "engineer", "frontline"},
    "trifront/rules.py": {"assault", "frontline"},
    "trifront/state.py": {"captain"},
    "trifront/ui/model.py": {"assault", "captain", "frontline"},
    "trifront/zones.py": {"captain"},
}


def named_in(source: str, ids) -> set[str]:
    """The ids `source` names outside its docstrings: as a word of a string, a name, an
    attribute, a function's, class's or argument's name (``supply_used`` names supply)."""
    pattern = re.compile(r"(?<![a-z])(" + "|".join(sorted(ids, key=len, reverse=True))
                         + r")(?![a-z])")
    tree = ast.parse(source)
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                 ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            words = [] if id(node) in docs else [node.value]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.Name):
            words = [node.id.lower()]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            words = [node.name.lower()]
        elif isinstance(node, (ast.arg, ast.keyword)):
            words = [(node.arg or "").lower()]
        elif isinstance(node, ast.alias):
            words = [(node.asname or node.name).lower()]
        else:
            continue
        for word in words:
            found.update(pattern.findall(word))
    return found


def naming_modules() -> dict[str, set[str]]:
    out = {}
    for path in sorted((ROOT / "trifront").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(EXEMPT) or rel.endswith("_table.py"):
            continue
        found = named_in(path.read_text(encoding="utf-8"), EFFECTS)
        if found:
            out[rel] = found
    return out


def test_only_the_listed_modules_name_effects():
    assert naming_modules() == NOT_YET


def test_the_reader_finds_a_name_in_each_form():
    ids = ("supply", "black_market", "recon")
    source = ('"""About the supply."""\n'
              'x = state.players[0].supply_used\n'
              'def f(black_market=1):\n    """recon"""\n    return t("log.t.recon")\n')
    assert named_in(source, ids) == {"supply", "black_market", "recon"}
    assert named_in('"""supply, recon"""\n# black_market\nsupplyx = 1\n', ids) == set()
