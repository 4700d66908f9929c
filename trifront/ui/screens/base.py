"""The screens' registry: ``on(act)`` registers an update for a click, ``draws(screen)`` a
screen's drawing, ``overlay(kind)`` a modal's."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class Screen:
    """What is on screen, as a value: one subclass per screen, with whatever that screen
    alone needs (whose Draft, who takes the device next). ``name`` is the screen's id
    (``#screen-<name>``) and the key of its drawing in ``SCREENS``."""

    name: ClassVar[str] = ""


#: screen name -> its value's class, for the screens that need nothing more than their name
PLAIN: dict[str, type] = {}


def plain(cls: type) -> type:
    """A screen whose value is its name alone: ``app.show("<name>")`` makes it."""
    PLAIN[cls.name] = cls
    return dataclass(frozen=True)(cls)


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

