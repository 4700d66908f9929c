"""scripts/build and the GitHub Pages workflow, on plain CPython (no browser; docs/DEPLOY.md).

The built site itself is played in headless Chromium by tests/browser/test_site.py.
The workflow is read with PyYAML (requirements-dev.txt).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github/workflows/pages.yml"
BUILD = ROOT / "scripts/build"


# --- the workflow --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def workflow() -> dict:
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    data["on"] = data.pop(True)  # YAML 1.1 reads the key `on` as true; GitHub does not
    return data


def test_deploys_on_push_to_main_and_by_hand(workflow):
    assert "main" in workflow["on"]["push"]["branches"]
    assert "workflow_dispatch" in workflow["on"]


def test_has_the_permissions_and_concurrency_pages_needs(workflow):
    assert workflow["permissions"]["pages"] == "write"
    assert workflow["permissions"]["id-token"] == "write"
    assert workflow["concurrency"]["group"]


def _uses(step: dict) -> str:
    return step.get("uses", "").split("@")[0]


def test_builds_with_scripts_build_and_uploads_that_folder(workflow):
    steps = workflow["jobs"]["build"]["steps"]
    uses = [_uses(s) for s in steps]
    for action in ("actions/checkout", "actions/setup-python", "actions/setup-node",
                   "actions/configure-pages", "actions/upload-pages-artifact"):
        assert action in uses, f"{action} is not used"
    runs = [(i, s["run"].split()) for i, s in enumerate(steps) if "run" in s]
    setup = [i for i, cmd in runs if cmd[0] == "scripts/setup"]
    assert setup, "scripts/setup is not run"
    assert all("--browser" not in cmd for _, cmd in runs), "the build needs no browser"
    builds = [(i, cmd) for i, cmd in runs if cmd[0] == "scripts/build"]
    assert len(builds) == 1, runs
    build_at, cmd = builds[0]
    out = cmd[1] if len(cmd) > 1 else "dist"
    upload_at = uses.index("actions/upload-pages-artifact")
    assert setup[0] < build_at < upload_at
    assert uses.index("actions/checkout") < setup[0]
    path = (steps[upload_at].get("with") or {}).get("path")
    assert path is not None and os.path.normpath(path) == os.path.normpath(out), (path, out)
    for _, cmd in runs:  # every script the workflow runs exists and is executable
        if cmd[0].startswith("scripts/"):
            assert os.access(ROOT / cmd[0], os.X_OK), cmd[0]


def test_deploys_the_uploaded_artifact(workflow):
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build" or "build" in deploy["needs"]
    assert deploy["environment"]["name"] == "github-pages"
    assert "actions/deploy-pages" in [_uses(s) for s in deploy["steps"]]


# --- scripts/build -------------------------------------------------------------------------

def run_build(out: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BUILD), *args, str(out)],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    if not (ROOT / "web/vendor/pyodide/pyodide.mjs").is_file():
        pytest.fail("web/vendor/ is missing: run scripts/setup", pytrace=False)
    out = tmp_path_factory.mktemp("site") / "dist"
    done = run_build(out)
    assert done.returncode == 0, done.stderr
    return out


def _tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_build_fails_clearly_without_the_vendored_runtime(tmp_path):
    done = run_build(tmp_path / "out", "--src", str(tmp_path))
    assert done.returncode == 1
    assert "run scripts/setup" in done.stderr, done.stderr
    assert not (tmp_path / "out").exists()


def test_build_is_reproducible(built, tmp_path):
    again = tmp_path / "again"
    assert run_build(again).returncode == 0
    assert _tree(again) == _tree(built)
    assert run_build(again).returncode == 0  # over a previous build: replaced, same bytes
    assert _tree(again) == _tree(built)


def test_build_refuses_to_overwrite_another_folder(tmp_path):
    (tmp_path / "mine.txt").write_text("not a build")
    done = run_build(tmp_path)
    assert done.returncode == 1 and "not replacing" in done.stderr
    assert (tmp_path / "mine.txt").is_file()


def test_build_holds_what_the_page_loads_and_nothing_else(built):
    import tomllib
    files = set(_tree(built))
    manifest = json.loads((built / "build.json").read_text())
    assert set(manifest["files"]) == files - {"build.json"}
    assert re.fullmatch(r"[0-9a-f]{16}", manifest["build"])
    config = tomllib.loads((built / "pyscript.toml").read_text())
    assert config["files"] == {"./trifront.zip": "./*"}  # the repo's [files], packed
    repo = tomllib.loads((ROOT / "pyscript.toml").read_text())
    listed = {src.removeprefix("./") for src in repo["files"]}
    # and the CPU worker's script, loaded by its URL (not in [files]: its failed fetch must not
    # stop the page)
    assert {f for f in files if f.startswith("trifront/")} == listed | {"trifront/ui/cpu_worker.py"}
    assert "trifront/ui/cpu_worker.py" not in listed
    with zipfile.ZipFile(built / "trifront.zip") as z:
        names = set(z.namelist())
    assert {d.removeprefix("./") for d in repo["files"].values()} <= names
    assert all(n in listed or "/__pycache__/" in n for n in names), names
    assert not any(f.endswith(".map") for f in files)
    assert {f.removeprefix("web/vendor/pyodide/") for f in files
            if f.startswith("web/vendor/pyodide/")} == {
        "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
        "pyodide-lock.json"}
    assert "web/vendor/pyscript/core.js" in files and "web/online.json" in files
    assert "web/sw.js" not in files  # the template; the worker itself is sw.js at the top
    assert not any(f.startswith(("tests/", "scripts/", "node_modules/", "bench/")) for f in files)


def test_only_the_built_page_registers_the_service_worker(built):
    page = (built / "index.html").read_text()
    assert page.count('src="./web/sw-register.js"') == 1
    assert "sw-register" not in (ROOT / "index.html").read_text()
    bid = json.loads((built / "build.json").read_text())["build"]
    register = (built / "web/sw-register.js").read_text()
    worker = (built / "sw.js").read_text()
    assert f'"{bid}"' in register and f'"{bid}"' in worker
    assert "__TRIFRONT" not in register + worker
    precache = json.loads(re.search(r"const FILES = (\[.*?\]);", worker, re.S).group(1))
    assert precache[0] == "./" and "./sw.js" not in precache
    assert {u.removeprefix("./") for u in precache[1:]} == set(_tree(built)) - {
        "sw.js", "build.json", ".nojekyll"}
    assert (built / ".nojekyll").is_file()  # GitHub Pages must not run Jekyll (drops _files)


def test_every_url_in_the_built_page_is_relative(built):
    page = (built / "index.html").read_text()
    for url in re.findall(r'(?:src|href|config)="([^"]+)"', page):
        assert url.startswith(("./", "data:")), url
        if url.startswith("./"):
            assert (built / url[2:]).is_file(), url
    toml = (built / "pyscript.toml").read_text()
    interpreter = re.search(r'^interpreter = "\./([^"]+)"', toml, re.M)
    assert interpreter and (built / interpreter.group(1)).is_file()
    # the snapshot loader and its worker ship with the site (and its service worker's list)
    precache = json.loads(re.search(r"const FILES = (\[.*?\]);", (built / "sw.js").read_text(),
                                    re.S).group(1))
    assert {"./web/pyodide-snapshot.mjs", "./web/snapshot-worker.mjs"} <= set(precache)


def test_the_start_up_benchmark_serves_a_bare_page_with_the_sites_own_service_worker(
        built, tmp_path):
    """bench/startup.py --bare-offline: the reference that tells the service worker's price
    from our page's. Its sw.js must be the site's, with only the file list replaced by the
    bare page's files, every one of them present (an install that 404s would never finish)."""
    into = tmp_path / "bare-sw"
    into.mkdir()
    code = ("import sys; from pathlib import Path; sys.path.insert(0, 'bench'); import startup; "
            "startup.make_bare_offline(Path(sys.argv[1]), Path(sys.argv[2]))")
    done = subprocess.run([sys.executable, "-c", code, str(built), str(into)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    pattern = re.compile(r"const FILES = (\[.*?\]);", re.S)
    sw = (into / "sw.js").read_text(encoding="utf-8")
    files = json.loads(pattern.search(sw).group(1))
    assert pattern.sub("", sw) == pattern.sub("", (built / "sw.js").read_text(encoding="utf-8"))
    assert {"./", "./index.html", "./pyscript.toml", "./web/vendor/pyodide/pyodide.asm.wasm",
            "./web/vendor/pyscript/core.js"} <= set(files)
    assert not any(f.startswith(("./trifront", "./web/css")) for f in files)
    assert all((into / f).is_file() for f in files if f != "./")
    html = (into / "index.html").read_text(encoding="utf-8")
    assert 'register("./sw.js")' in html and 'id = "bare-start"' in html
    # bare means PyScript on the vendored Pyodide itself, never through our snapshot loader
    assert 'interpreter = "./web/vendor/pyodide/pyodide.mjs"' in (
        into / "pyscript.toml").read_text(encoding="utf-8")

    empty = tmp_path / "no-sw"
    empty.mkdir()
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "nowhere"), str(empty)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "needs a built site" in done.stderr
