"""The menu as HTML, made when the site is built (scripts/build), so that a first visit shows
the real menu at its first paint, seconds before Python runs.

The markup is what the page itself renders: the controller on CPython, with empty storage, for
each opponent kind and language, through html.to_html. web/early-menu.js shows the one that
fits the remembered settings, keeps the choices clicked before Python is ready, and hands
them to the controller when it is (trifront/ui/main.py), which then draws the same menu.
"""

from __future__ import annotations

from trifront.net.match import MemoryStorage
from trifront.ui import i18n
from trifront.ui.app import App
from trifront.ui.html import El, to_html

KINDS = ("cpu", "local", "online")


def menu_html(kind: str, lang: str, default_signal: str = "nostr") -> str:
    """#app's content for the menu with ``kind`` chosen, in ``lang``: the defaults a first
    visit has (no saved settings, no saved game, no room)."""
    trees: list[El] = []
    # an empty storage: a first visit's menu (the tutorial offered, nothing saved)
    app = App(trees.append, None, lang=lang, default_signal=default_signal,
              log_error=_refuse, log_warn=lambda _text: None, storage=MemoryStorage())
    app.dispatch("menu-set", {"key": "kind", "value": kind})
    return to_html(trees[-1])


def templates(default_signal: str = "nostr") -> str:
    """Every menu as a <template id="tf-menu-KIND-LANG">, with the words early-menu.js needs
    (on the template: data-getting-ready)."""
    out = []
    try:
        for lang in i18n.LANGS:
            for kind in KINDS:
                i18n.set_lang(lang)
                ready = i18n.t("menu.getting_ready")
                out.append(f'<template id="tf-menu-{kind}-{lang}" data-getting-ready="{ready}">'
                           f"{menu_html(kind, lang, default_signal)}</template>")
    finally:
        i18n.set_lang("en")
    return "\n".join(out)


def _refuse(text: str) -> None:
    raise RuntimeError(f"the menu did not render: {text}")
