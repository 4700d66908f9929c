"""The layers point only down, read from the source's imports (ast), not by importing it:
the engine (every module of trifront/ outside ui/, net/ and ai/) imports nothing of the page,
the online play or the CPU, and no chain of imports (at a module's top or inside a function)
comes back to where it started. docs/ARCHITECTURE.md draws the map these check."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("trifront", "trifront_relay")
#: the layers above the engine; the engine is the rest of trifront/
ABOVE = ("trifront.ui", "trifront.net", "trifront.ai")
#: the command line (``python -m trifront``) is a front end, as the page is: it may name
#: effects in the page's English words
FRONT_ENDS = ("trifront.__main__",)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ours `name` imports anywhere in its source (at the top, in a function,
    under TYPE_CHECKING alike)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[:len(up) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            # `from . import x` and `from .pkg import mod` name modules; else names in base
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:    # `import a.b.c` of a name in a.b
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def is_engine(name: str) -> bool:
    return (name == "trifront" or name.startswith("trifront.")) and not any(
        name == top or name.startswith(top + ".") for top in ABOVE + FRONT_ENDS)


def upward_imports(g: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted((name, target) for name, targets in g.items() if is_engine(name)
                  for target in targets
                  if any(target == top or target.startswith(top + ".") for top in ABOVE))


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of more than one module (Tarjan), as a sorted list.
    A package's ``__init__`` importing its own modules is not a circle of ours."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def edges(v: str) -> list[str]:
        # a module of a package implicitly imports its package first; only the explicit
        # imports count, and a package's own __init__ importing its children is not a loop
        return sorted(w for w in g.get(v, ()) if not v.startswith(w + "."))

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return found


def test_the_engine_imports_nothing_above_it():
    assert upward_imports(graph()) == []


def test_the_cpu_and_online_play_import_nothing_of_the_page():
    g = graph()
    assert sorted((name, target) for name, targets in g.items()
                  if name.startswith(("trifront.ai", "trifront.net")) for target in targets
                  if target.startswith("trifront.ui")) == []
    assert sorted((name, target) for name, targets in g.items()
                  if name.startswith("trifront.ai") for target in targets
                  if target.startswith("trifront.net")) == []


def test_no_module_imports_itself_back():
    assert cycles(graph()) == []


def test_the_checks_can_fail():
    g = {"trifront.rules": {"trifront.ui.i18n"}, "trifront.ui.i18n": {"trifront.rules"},
         "trifront.ai.cpu": {"trifront.rules"}, "trifront.ui.model": {"trifront.ai.cpu"}}
    assert upward_imports(g) == [("trifront.rules", "trifront.ui.i18n")]
    assert cycles(g) == [["trifront.rules", "trifront.ui.i18n"]]


def test_the_reader_sees_every_kind_of_import(tmp_path):
    known = {"trifront", "trifront.rules", "trifront.ui", "trifront.ui.i18n", "trifront.net",
             "trifront.net.sealed"}
    source = tmp_path / "rules.py"
    source.write_text("from .ui.i18n import EN\nimport trifront.net.sealed\n"
                      "def f():\n    from . import ui\n")
    assert imports_of("trifront.rules", source, known) == {
        "trifront.ui.i18n", "trifront.net.sealed", "trifront.ui"}
