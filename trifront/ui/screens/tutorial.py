"""The tutorial: its seat (the page's player against a scripted opponent, each step of
trifront/ui/tutorial.py asked of the player) and its clicks (start, skip, play on vs the CPU).

The coach is drawn over the board, round and game-over screens by the seat's ``decorate``
(tutorial_render.py); the menu's Tutorial button and first-visit offer by screens/menu.py.
"""

from __future__ import annotations

from trifront.ui import model as m
from trifront.ui import tutorial as tut
from trifront.ui import tutorial_render as tr
from trifront.ui.screens.base import on
from trifront.ui.seats import CpuSeat


class TutorialSeat(CpuSeat):
    """A game vs a scripted "CPU" (its moves are the script's: no worker, no search), not
    saved, without Hint, Menu-and-keep or Play again; each of the player's choices must be
    the step's, or the coach says what to do."""

    saves = offers_leave = offers_rematch = offers_hint = uses_cpu = clocked = False
    refused = False      # the player's last choice was not the step's

    def who(self) -> tuple[str, int]:
        return "cpu", self.human            # "You" and "CPU"

    async def opponent_move(self, view: dict) -> dict:
        return tut.opponent_action(view)

    def belief(self) -> dict | None:
        return None                          # a script, not a search: nothing it guessed

    def refuses(self, **parts) -> bool:
        page = self.page
        if page.game is None:
            return False
        view = page.view()
        step = tut.current_step(view)
        action = parts.pop("action", None)
        no = (tut.refuse_action(step, view, action) if action is not None
              else tut.refuse(step, view, **parts))
        # said in the coach's own "do" line, where the player reads what to do (a toast at
        # the window's top went unseen); the next accepted choice puts the line back
        self.refused = bool(no)
        return no

    def game_over(self) -> None:
        if tut.finished(self.page.view()):
            self.page.persist.set(tut.DONE_KEY, "done")

    def decorate(self, root, screen) -> None:
        page = self.page
        if page.game is None:
            return
        shown = page.shown
        if shown == "board":
            tr.decorate_board(screen, page.view(), page.sel.step, thinking=page.thinking,
                              refused=self.refused)
        elif shown == "round":
            tr.decorate_round(screen, len(page.view()["rounds"]))
        elif shown == "over":
            tr.decorate_over(screen, tut.finished(page.view()))


@on("tutorial")
def start(app, data: dict) -> None:
    """The menu's Tutorial button or its first-visit offer."""
    if app.match is not None:
        from trifront.ui.screens.common import menu
        menu(app, data)
    app.sit(TutorialSeat(app))
    app.viewer, app.first = 0, tut.PLAYER
    app.game = tut.new_game()
    app.rounds_seen = 0
    app.sel, app.overlay, app.fresh = m.Selection(), None, {}
    app.hints.clear()
    app.advance()


def _leave(app) -> None:
    app.gen += 1                    # a scripted move still waiting is dropped
    app.thinking = False
    app.game, app.overlay = None, None
    app.sel = m.Selection()
    app.sit(CpuSeat(app))
    app.show("menu")


@on("tutorial-skip")
def skip(app, data: dict) -> None:
    """"Skip tutorial" (any step) or "Menu" at its end: back to the menu; the first-visit
    offer is not made again."""
    if not isinstance(app.seat, TutorialSeat):
        return
    if app.persist.get(tut.DONE_KEY) is None:
        app.persist.set(tut.DONE_KEY, "skipped")
    _leave(app)


@on("tutorial-cpu")
def play_cpu(app, data: dict) -> None:
    """The tutorial's end: "Play vs CPU", a Normal game with the menu's other settings."""
    if not isinstance(app.seat, TutorialSeat):
        return
    _leave(app)
    app.opts.update(kind="cpu", mode="normal")
    from trifront.ui.screens.menu import start as start_game
    start_game(app, data)
