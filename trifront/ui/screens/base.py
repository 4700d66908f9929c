"""The screens' registry: ``on(act)`` registers an update for a click, ``draws(screen)`` a
screen's drawing, ``overlay(kind)`` a modal's."""

from __future__ import annotations

from collections.abc import Callable

from trifront.ui.html import El

#: data-act -> update(app, data)
HANDLERS: dict[str, Callable] = {}
#: screen name -> draw(app) -> El
SCREENS: dict[str, Callable] = {}
#: overlay kind -> draw(app) -> El | None
OVERLAYS: dict[str, Callable] = {}


def on(*acts: str) -> Callable:
    def register(update: Callable) -> Callable:
        for act in acts:
            assert act not in HANDLERS, act
            HANDLERS[act] = update
        return update
    return register


def draws(*names: str) -> Callable:
    def register(draw: Callable) -> Callable:
        for name in names:
            SCREENS[name] = draw
        return draw
    return register


def overlay(*kinds: str) -> Callable:
    def register(draw: Callable) -> Callable:
        for kind in kinds:
            OVERLAYS[kind] = draw
        return draw
    return register


def overlay_el(app) -> El | None:
    if not app.overlay:
        return None
    draw = OVERLAYS.get(app.overlay[0])
    return draw(app) if draw is not None else None
