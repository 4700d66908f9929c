"""pyscript.toml and index.html agree with the tree (plain CPython; no browser).

In the browser, `import trifront.x` only works for files listed in pyscript.toml [files], and
a listed file that is missing makes the page hang with no error (a 404 during start-up).
Fix a failure here with: python3 scripts/sync_pyscript_files.py
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import sync_pyscript_files  # noqa: E402

FIX = "run: python3 scripts/sync_pyscript_files.py"


@pytest.fixture(scope="module")
def config() -> dict:
    with open(ROOT / "pyscript.toml", "rb") as f:
        return tomllib.load(f)


def test_every_package_file_is_listed(config):
    listed = {src.removeprefix("./") for src in config.get("files", {})}
    missing = [p for p in sync_pyscript_files.python_files() if p not in listed]
    assert not missing, f"not in pyscript.toml [files] (the browser cannot import them); {FIX}: {missing}"


def test_every_listed_file_exists(config):
    absent = [src for src in config.get("files", {}) if not (ROOT / src).is_file()]
    assert not absent, f"listed in pyscript.toml [files] but absent (the page would hang); {FIX}: {absent}"


def test_files_land_where_they_are_imported_from(config):
    for src, dest in config["files"].items():
        assert src.startswith("./") and not dest.endswith("/*"), src
        assert dest == src, f"{src} should be copied to the same relative path, not {dest}"


def test_config_is_what_the_generator_writes():
    text = (ROOT / "pyscript.toml").read_text(encoding="utf-8")
    assert sync_pyscript_files.synced_text(text, sync_pyscript_files.python_files()) == text, FIX


def test_interpreter_is_the_vendored_pyodide_by_a_relative_path(config):
    interpreter = config["interpreter"]
    assert interpreter == "./web/pyodide-snapshot.mjs"
    wrapper = (ROOT / interpreter).read_text(encoding="utf-8")
    # the snapshot loader is the vendored runtime plus a start from the browser's snapshot
    assert 'from "./vendor/pyodide/pyodide.mjs"' in wrapper
    assert "export * from" in wrapper and "export async function loadPyodide" in wrapper
    assert "packages" not in config, "the npm pyodide ships no wheels; `packages` hangs offline"


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _index_tags():
    parser = _Tags()
    parser.feed((ROOT / "index.html").read_text(encoding="utf-8"))
    return parser.tags


def test_index_html_loads_only_local_relative_resources():
    for tag, attrs in _index_tags():
        for key in ("src", "href", "config"):
            value = attrs.get(key)
            if value is None or value.startswith("data:"):
                continue
            assert value.startswith("./"), f"<{tag} {key}={value!r}> must be relative (./...)"
            if not value.startswith("./web/vendor/"):  # made by scripts/setup
                assert (ROOT / value).is_file(), f"<{tag} {key}={value!r}> does not exist"


def test_index_html_declares_only_the_main_script():
    """No worker tag: a declared worker boots its own Pyodide at page load, competing with the
    page's start-up; main.py creates the "cpu" worker once the menu is interactive."""
    scripts = [a for t, a in _index_tags() if t == "script" and a.get("type") == "py"]
    assert [(a["src"], a.get("config")) for a in scripts] == \
        [("./trifront/ui/main.py", "./pyscript.toml")]
    assert not [a for a in scripts if "worker" in a]


def test_main_creates_the_cpu_worker_from_existing_files():
    source = (ROOT / "trifront/ui/main.py").read_text(encoding="utf-8")
    match = re.search(r"^CPU_WORKER = (\{.*\})$", source, re.M)
    assert match, "main.py must define CPU_WORKER = {...} on one line"
    worker = ast.literal_eval(match.group(1))
    assert worker["name"] == "cpu"
    for key in ("src", "config"):
        assert worker[key].startswith("./") and (ROOT / worker[key]).is_file(), worker
    # the first attempt is named "cpu"; a retry after a failure gets a new name (CpuClient.retry)
    assert 'create_named_worker(**{**CPU_WORKER, "name": cpu_attempts[-1]})' in source
    assert 'cpu_attempts.append("cpu" if not cpu_attempts' in source


def test_worker_exports_are_defined():
    source = (ROOT / "trifront/ui/cpu_worker.py").read_text(encoding="utf-8")
    match = re.search(r"^__export__\s*=\s*\[([^\]]*)\]", source, re.M)
    assert match, "cpu_worker.py must define __export__ = [...]"
    for name in re.findall(r"[\"'](\w+)[\"']", match.group(1)):
        assert re.search(rf"^(async )?def {name}\(", source, re.M), f"exported {name} is not defined"


def test_the_sync_script_writes_nothing_on_help_or_a_mistyped_option(tmp_path, monkeypatch):
    import pytest
    stale = tmp_path / "pyscript.toml"
    stale.write_text("[files]\n", encoding="utf-8")
    monkeypatch.setattr(sync_pyscript_files, "CONFIG", stale)
    for argv, code in ((["--help"], 0), (["--chek"], 2)):
        with pytest.raises(SystemExit) as exit_:
            sync_pyscript_files.main(argv)
        assert exit_.value.code == code
        assert stale.read_text(encoding="utf-8") == "[files]\n"
    assert sync_pyscript_files.main(["--check"]) == 1
