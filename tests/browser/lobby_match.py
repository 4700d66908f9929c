#!/usr/bin/env python3
"""Strangers in the lobby, in real headless Chromium, for tests/browser/test_lobby.py. Run it
inside a loopback-only network namespace, as online_match.py:

    unshare -n sh -c 'ip link set lo up && exec .venv/bin/python tests/browser/lobby_match.py \
        --out result.json two'

A local Nostr relay (PyPI nostr-relay, online_match.start_nostr_relay) and pages opened with
``?signal=nostr&nostr=ws://...`` and no room word. Scenarios:
  two    two pages (two contexts) make a player each, the second sees the first's seek in
         Open games, both press Quick match and reach the board of the same room; a third
         page makes a player and is reloaded: it is the same player; screenshots of the lobby
         screen at 375 x 667 and 1280 x 800, English and Japanese
  six    six pages press Quick match at once: each reaches the board, paired with exactly one
Each result has the seconds from the second press to both boards, what each page showed, and
console errors.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from pathlib import Path
from urllib.parse import parse_qs, urlparse

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

import online_match as om  # noqa: E402

NAMES = ("Aki", "Bea", "Cho", "Dev", "Eli", "Fay")


def lobby_url(server, port: int, lang: str = "") -> str:
    return (f"{server.url}index.html?signal=nostr&nostr=ws://127.0.0.1:{port}"
            f"&relay=ws://127.0.0.1:9/&ice=none&cpu_delay=0&claim_after=600"
            f"&snapshot_delay=-1{'&lang=' + lang if lang else ''}")


def context(browser, width=1280, height=800):
    ctx = browser.new_context(viewport={"width": width, "height": height},
                              permissions=["microphone"], reduced_motion="reduce")
    ctx.set_default_timeout(30_000)
    return ctx


def enter_lobby(player: om.Player, name: str | None) -> None:
    """From the menu to the lobby; a page with no player yet makes one named ``name``."""
    page = player.page
    page.click("#opt-kind-online")
    page.click("#btn-strangers")
    if name is not None:
        page.wait_for_selector("#player-name", timeout=60_000)
        page.fill("#player-name", name)
        page.click("#btn-player-new")
    page.wait_for_selector('#screen-strangers[data-net="open"] #btn-quick-match',
                           timeout=60_000)


def room_of(player: om.Player) -> str:
    return parse_qs(urlparse(player.page.url).query).get("room", [""])[0]


def on_board(players: list[om.Player], timeout_s: float) -> float | None:
    """Seconds until every page shows the board (polled), or None."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout_s:
        if all(p.screen() == "screen-board" for p in players):
            return time.monotonic() - t0
        time.sleep(0.05)
    return None


def shots(browser, url: str) -> list[str]:
    """The lobby screen with one open game listed, phone and laptop, English and Japanese."""
    names = []
    seeker = om.Player(context(browser), url, "seeker")
    enter_lobby(seeker, "Okabe Rin")
    for lang in ("en", "ja"):
        for w, h in ((375, 667), (1280, 800)):
            viewer = om.Player(context(browser, w, h), url + f"&lang={lang}", f"v{lang}{w}")
            enter_lobby(viewer, "Yuki" if lang == "ja" else "Sam")
            if not names:
                seeker.page.click("#btn-quick-match")
            viewer.page.wait_for_selector("#open-games li", timeout=30_000)
            name = f"lobby-{lang}-{w}x{h}"
            viewer.shot(name)
            names.append(name)
            viewer.context.close()
    seeker.page.click("#btn-lobby-cancel")
    seeker.shot("lobby-seeker-1280x800")
    names.append("lobby-seeker-1280x800")
    seeker.context.close()
    return names


def scenario_two(pw, server) -> dict:
    out: dict = {}
    with om.nostr_room(pw, server, "unused") as (browser, _u, port):
        url = lobby_url(server, port)
        a = om.Player(context(browser), url, "a")
        b = om.Player(context(browser), url, "b")
        enter_lobby(a, NAMES[0])
        enter_lobby(b, NAMES[1])
        a.page.click("#btn-quick-match")
        a.page.wait_for_selector("#lobby-seeking")
        row = b.page.wait_for_selector("#open-games li", timeout=30_000)
        out["b_lists"] = row.inner_text()
        b.shot("lobby-open-game")
        t0 = time.monotonic()
        b.page.click("#btn-quick-match")
        out["board_s"] = on_board([a, b], 60)
        out["rooms"] = [room_of(a), room_of(b)]
        out["screens"] = [a.screen(), b.screen()]
        a.shot("lobby-paired-board")
        out["errors"] = a.errors + b.errors
        out["second_press_to_boards_s"] = round(time.monotonic() - t0, 2)
        a.context.close()
        b.context.close()
        # a page reloaded in the lobby keeps its player
        c = om.Player(context(browser), url, "c")
        enter_lobby(c, "Reload Me")
        before = (c.page.inner_text("#player-name-shown"), c.page.inner_text("#player-fp"))
        c.page.reload()
        c.page.wait_for_selector('#app[data-ready="1"]', state="attached", timeout=om.BOOT_MS)
        enter_lobby(c, None)
        after = (c.page.inner_text("#player-name-shown"), c.page.inner_text("#player-fp"))
        out["reload"] = {"before": before, "after": after}
        out["errors"] += c.errors
        c.context.close()
        out["shots"] = shots(browser, url)
    return out


def scenario_six(pw, server) -> dict:
    out: dict = {}
    with om.nostr_room(pw, server, "unused") as (browser, _u, port):
        url = lobby_url(server, port)
        players = [om.Player(context(browser), url, n) for n in NAMES]
        for p, n in zip(players, NAMES):
            enter_lobby(p, n)
        t0 = time.monotonic()
        for p in players:
            p.page.click("#btn-quick-match")
        out["presses_s"] = round(time.monotonic() - t0, 2)     # the six clicks themselves
        out["board_s"] = on_board(players, 90)                  # after the last press
        out["rooms"] = [room_of(p) for p in players]
        out["screens"] = [p.screen() for p in players]
        out["errors"] = [e for p in players for e in p.errors]
    return out


SCENARIOS = {"two": scenario_two, "six": scenario_six}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("scenarios", nargs="+", choices=sorted(SCENARIOS))
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    server = om.serve.serve_in_thread(root=om.ROOT, port=0, quiet=True)
    results = {}
    with sync_playwright() as pw:
        for name in args.scenarios:
            start = time.monotonic()
            try:
                results[name] = SCENARIOS[name](pw, server)
            except Exception:  # noqa: BLE001 - reported to the test
                results[name] = {"exception": traceback.format_exc()}
            results[name]["seconds"] = round(time.monotonic() - start, 1)
    Path(args.out).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
