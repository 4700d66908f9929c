"""The browser's Back button walks the page's screens (App.history_depth and the
"history-back" update; dom.History keeps the browser's entries in step) (CPython)."""

from __future__ import annotations

from .test_app import make_app


def test_the_depth_follows_the_screens_and_back_goes_up_one_level():
    from trifront.net.match import MemoryStorage
    depths = []
    app, page = make_app(history=depths.append, storage=MemoryStorage())
    assert app.history_depth() == 0
    app.dispatch("start")
    assert page.screen() == "screen-board" and depths[-1] == 1
    app.dispatch("history-back", {"depth": "0"})
    # the game is kept, as "Menu" keeps it
    assert page.screen() == "screen-menu" and depths[-1] == 0
    assert page.tree.find("#btn-resume") is not None
    app.dispatch("history-back", {"depth": "0"})        # already there: nothing happens
    assert page.screen() == "screen-menu"
    app.dispatch("history-back", {"depth": "junk"})
    assert page.screen() == "screen-menu" and not page.errors


def test_back_from_a_replay_over_a_game_closes_the_replay_only():
    import json
    depths = []
    app, page = make_app(history=depths.append)
    app.dispatch("start")
    app.open_replay(json.dumps(app.game.record()), own=True, who=app.seat.who())
    app.render()
    assert depths[-1] == 2
    app.dispatch("history-back", {"depth": "1"})
    assert app.replay is None and page.screen() == "screen-board" and depths[-1] == 1


def test_back_leaves_the_tutorial_and_a_draft():
    app, page = make_app()
    app.dispatch("tutorial")
    assert page.screen() == "screen-board"
    app.dispatch("history-back", {"depth": "0"})
    assert page.screen() == "screen-menu" and app.seat.kind == "cpu"
    app.dispatch("menu-set", {"key": "mode", "value": "draft"})
    app.dispatch("start")
    assert page.screen() == "screen-draft"
    app.dispatch("history-back", {"depth": "0"})
    assert page.screen() == "screen-menu" and not page.errors
