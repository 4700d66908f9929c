"""Make docs/screenshot.png, the README's picture: a game vs the CPU in its first round.

    .venv/bin/python scripts/readme_screenshot.py [--seed N] [--moves N] [--out PATH]

The game is dealt from ``--seed`` and played by the Easy CPU for both sides for ``--moves``
actions, then saved where the page keeps a running game (localStorage "trifront:game", as a
reload would find it); the page opens it, a card of the hand is selected, and the window
(1280 x 800) is captured. Needs scripts/setup --browser (Debian chromium, Playwright).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts"), str(ROOT / "tests" / "browser")]

from playwright.sync_api import sync_playwright  # noqa: E402

import serve  # noqa: E402
from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from harness import wait_booted  # noqa: E402
from trifront.ai import greedy  # noqa: E402
from trifront.game import Game  # noqa: E402


def played(seed: int, moves: int) -> Game:
    """A game vs the CPU (the human is player 0) after ``moves`` Easy actions, still in
    round 1 and with player 0 to move."""
    game = Game.new(seed=seed)
    for n in range(moves):
        if game.to_move is None or game.state.rounds:
            raise SystemExit(f"seed {seed}: round 1 ended after {n} moves; try fewer --moves")
        game.apply(greedy.choose_action(game.view(game.to_move), seed=seed * 1000 + n))
    if game.to_move != 0 or game.state.rounds:
        raise SystemExit(f"seed {seed}, {moves} moves: not the human's turn in round 1")
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--moves", type=int, default=6)
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshot.png"))
    args = parser.parse_args(argv)
    game = played(args.seed, args.moves)
    save = json.dumps({"kind": "cpu", "human": 0, "record": game.record()})
    server = serve.serve_in_thread(root=str(ROOT), host="127.0.0.1", port=0, prefix="/",
                                   quiet=True)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.add_init_script(f"localStorage.setItem('trifront:game', {json.dumps(save)})")
            page.goto(server.url)
            wait_booted(page)
            page.wait_for_selector("#screen-board")
            page.locator("#hand-me [data-card-id]:not(.tf-dim)").first.click()
            page.wait_for_timeout(400)          # the selected card's lift has settled
            page.screenshot(path=args.out)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
