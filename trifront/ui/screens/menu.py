"""The menu: the opponent (CPU, one device, online), who goes first, the mode, the CPU's
strength, "Start", and "Continue the saved game"."""

from __future__ import annotations

from trifront.net.clock import DEFAULT as CLOCK_DEFAULT
from trifront.net.clock import PRESETS as CLOCK_PRESETS
from trifront.net.signaling import ROOM_WORD_MAX, SIGNALS, choose_signal
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui import online_render as onr
from trifront.ui import seats
from trifront.ui.html import El, h
from trifront.ui.persist import TUTORIAL_KEY
from trifront.ui.room_words import make_room_word
from trifront.ui.i18n import t
from trifront.ui.render import button, lang_button
from trifront.ui.screens.base import Screen, draws, on, plain
from trifront.ui.screens.draft import Draft

@plain
class Menu(Screen):
    name = "menu"


def settings(app, *, room: str, relay: str, signal: str, default_signal: str, lang: str,
             browser_lang: str) -> None:
    """The menu's settings at the page's start: the defaults, then the remembered ones
    (persist.py), then the address's (``room``, ``relay``, ``signal``: how online pages find
    each other, net/signaling.py; else the player's stored choice, else the page's default,
    web/online.json). The language: ?lang= (``lang``), else the remembered setting, else
    the browser's."""
    app.opts = {"kind": "cpu", "first": "0", "mode": "normal",
                "strength": "normal" if "normal" in app.strengths else app.strengths[0],
                "room": room[:ROOM_WORD_MAX], "relay": relay, "clock": CLOCK_DEFAULT,
                "conn": "0"}
    app.default_signal = default_signal if default_signal in SIGNALS else "relay"
    app.opts["signal"] = app.default_signal
    saved = app.persist.load_settings(app.opts, app.strengths)
    app.lang = i18n.set_lang(lang or saved.get("lang") or browser_lang)
    app.opts["signal"] = choose_signal(signal, app.opts["signal"], app.default_signal)
    if room:
        app.opts["kind"] = "online"


@draws("menu")
def draw(app):
    online = (onr.menu_rows(app.opts, app.page_url, app.default_relay, app.default_signal,
                            share=app.share_link is not None)
              if app.opts["kind"] == "online" else None)
    saved = app.persist.saved()
    screen = menu_screen(app.opts, app.status, app.strengths, online_rows=online,
                         saved=saved and saved["kind"],
                         saved_line=saved and m.saved_game_line(saved) or "")
    return with_tutorial(screen, offer=tutorial_offered(app))


def tutorial_offered(app) -> bool:
    """The first-visit offer: shown until the tutorial was finished or skipped once (a page
    with no storage, the build's prerendered menu among them, makes no offer)."""
    return app.persist.storage is not None and app.persist.get(TUTORIAL_KEY) is None


def with_tutorial(tree: El, offer: bool) -> El:
    """The menu: a "Tutorial" button beside How to play; on a first visit (nothing in
    storage under persist.TUTORIAL_KEY) the offer: a line in the tagline's place and the
    button lit up. The menu's height stays as it was (Start game in sight on every screen
    size). The tutorial's own modules load at its first click (screens/__init__.py LATER)."""
    actions = tree.find(".tf-menu-actions")
    if actions is not None:
        button_el = button(t("menu.tutorial"), "tutorial", id="btn-tutorial",
                           cls="tf-btn-offer" if offer else "tf-btn-ghost")
        actions.children.insert(1, button_el)
    head = tree.find(".tf-menu-head")
    if offer and head is not None:
        # on an upright phone the menu's buttons are a screen below: the offer has its own
        offer_el = h("div", h("p", t("tutorial.offer"), cls="tf-offer-text"),
                     button(t("menu.tutorial"), "tutorial", id="btn-tutorial-offer",
                            cls="tf-btn-offer tf-offer-go"),
                     cls="tf-tagline tf-offer", id="tutorial-offer")
        head.children = [offer_el if isinstance(c, El) and "tf-tagline" in c.classes else c
                         for c in head.children]
    return tree


@on("menu-set")
def menu_set(app, data: dict) -> None:
    key, value = data.get("key"), data.get("value")
    if key == "strength" and value not in app.strengths:
        return
    if key == "signal" and value not in SIGNALS:
        return
    if key == "clock" and value not in CLOCK_PRESETS:
        return
    if key == "conn" and value not in ("0", "1"):
        return
    if key in app.opts:
        app.opts[key] = value
        app.save_settings()


@on("room-word")
def room_word(app, data: dict) -> None:
    """"Make one up": a new room word in the field (room_words.py)."""
    if app.screen == "menu":
        app.opts["room"] = make_room_word()


@on("start")
def start(app, data: dict) -> None:
    if app.opts["kind"] == "online":
        app.start_online()
        return
    app.forget_game()
    app.save_settings()
    app.sit(seats.SEATS[app.opts["kind"]](app))   # (online: app.start_online)
    if app.seat.uses_cpu:
        app.cpu_notice()   # a worker already known to be gone: said from the first move
    first = app.opts["first"]
    app.first = app.rng.randrange(2) if first == "random" else int(first)
    app.picks = [{}, {}]
    app.viewer = 0
    # "Play again" comes from a finished game, which must not be saved over the Draft
    app.game = None
    if app.opts["mode"] == "draft":
        app.show(Draft(0))
    else:
        app.begin(None)


@on("resume-saved")
def resume_saved(app, data: dict) -> None:
    if app.screen == "menu" and not app.resume():
        app.toast = app.toast or i18n.t("msg.save_corrupt")


# ---------------------------------------------------------------------- drawing

def menu_screen(opts: dict, status: dict | None = None,
                strengths: tuple[str, ...] = ("easy",), online_rows: list | None = None,
                saved: str | None = None, saved_line: str = "") -> El:
    """The start menu: opponent (CPU / local / online), turn order, Normal or Draft (R2.2,
    R2.3, R3.1); the language, help, and opening a replay.

    ``status``: {"python": text, "cpu": text, "cpu_state": "ready"/"failed"/...} for the foot.
    ``online_rows``: the online match's rows (online_render.menu_rows) when kind is "online".
    ``saved``: "cpu" or "local" when a game left for the menu is saved: "Continue the saved game" comes first.
    ``saved_line``: which game that is (model.saved_game_line), or "".
    """
    status = status or {}
    kind, mode = opts.get("kind", "cpu"), opts.get("mode", "normal")

    def seg(key, value, label, sub=""):
        on = str(opts.get(key)) == value
        # one Tab stop a row: the chosen option; the arrows choose another (dom.seg_step)
        return h("button", h("span", label, cls="tf-seg-label"),
                 h("span", sub, cls="tf-seg-sub") if sub else None,
                 cls=["tf-seg", "tf-on" if on else ""], type="button",
                 id=f"opt-{key}-{value}", aria_pressed="true" if on else "false",
                 tabindex=None if on else "-1",
                 data={"act": "menu-set", "key": key, "value": value})

    if kind == "cpu":
        order = [seg("first", "0", t("menu.first_me")), seg("first", "1", t("menu.second_me")),
                 seg("first", "random", t("menu.random"))]
    else:
        order = [seg("first", "0", t("menu.p1_first")), seg("first", "1", t("menu.p2_first")),
                 seg("first", "random", t("menu.random"))]

    def strength(s):
        key = f"menu.strength.{s}"
        if key in i18n.EN:
            return seg("strength", s, t(key), t(key + "_sub"))
        return seg("strength", s, s.capitalize())

    cpu_state = status.get("cpu_state")
    cpu_text = (t("menu.status_cpu_page") if cpu_state == "failed" else
                t("menu.status_cpu_ready") if cpu_state == "ready" else t("menu.status_cpu"))
    return h("section",
             h("div",
               h("div",
                 # play a stranger (screens/strangers.py): in the corner, the menu no taller
                 button(t("strangers.open"), "strangers-open", id="btn-strangers",
                        cls="tf-btn-primary tf-btn-small") if kind == "online" else None,
                 onr.clock_button(opts),
                 lang_button(cls="tf-btn-ghost tf-btn-small"), cls="tf-menu-lang"),
               h("div", h("div", cls="tf-logo-mark", aria_hidden="true"),
                 h("h1", "TriFront", cls="tf-title"),
                 h("p", t("menu.tagline"), cls="tf-tagline"),
                 cls="tf-menu-head"),
               h("div", button(t("menu.resume"), "resume-saved", id="btn-resume",
                               cls="tf-btn-primary"),
                 h("p", h("strong", saved_line, id="resume-what") if saved_line else None,
                   " " if saved_line else None, t(f"menu.resume_sub_{saved}"), cls="tf-sub"),
                 cls="tf-menu-resume") if saved in ("cpu", "local") else None,
               h("div", h("h2", t("menu.opponent"), cls="tf-row-title"),
                 h("div", seg("kind", "cpu", t("menu.cpu"), t("menu.cpu_sub")),
                   seg("kind", "local", t("menu.local"), t("menu.local_sub")),
                   seg("kind", "online", t("menu.online"), t("menu.online_sub")),
                   cls="tf-segs", role="group", aria_label=t("menu.opponent")),
                 cls="tf-menu-row"),
               h("div", h("h2", t("menu.starts"), cls="tf-row-title"),
                 h("div", order, cls="tf-segs", role="group", aria_label=t("menu.starts")),
                 cls="tf-menu-row") if kind != "online" else None,
               online_rows if kind == "online" else None,
               h("div", h("h2", t("menu.strength"), cls="tf-row-title"),
                 h("div", [strength(s) for s in strengths], cls="tf-segs", role="group",
                   aria_label=t("menu.strength")),
                 cls="tf-menu-row") if kind == "cpu" and len(strengths) > 1 else None,
               h("div", h("h2", t("menu.effects"), cls="tf-row-title"),
                 h("div", seg("mode", "normal", t("menu.normal"), t("menu.normal_sub")),
                   seg("mode", "draft", t("menu.draft"), t("menu.draft_sub")),
                   cls="tf-segs", role="group", aria_label=t("menu.effects")),
                 cls="tf-menu-row"),
               h("div", button(t("menu.join") if kind == "online" else t("menu.start"), "start",
                               id="btn-start", cls="tf-btn-primary tf-btn-big"),
                 button(t("watch.join"), "watch-start", id="btn-watch",
                        cls="tf-btn-ghost", title=t("watch.join_title"))
                 if kind == "online" else None,
                 button(t("menu.help"), "help", id="btn-help", cls="tf-btn-ghost"),
                 button(t("menu.replay"), "open-replay", id="btn-open-replay",
                        cls="tf-btn-ghost"),
                 cls="tf-menu-actions"),
               h("div",
                 h("p", t("menu.status_python"), id="python-status"),
                 # the CPU's state only where a CPU plays
                 h("p", cpu_text, id="cpu-status", data={"state": cpu_state})
                 if kind == "cpu" else None,
                 h("button", t("msg.cpu_retry"), type="button", id="btn-cpu-retry",
                   cls="tf-btn tf-btn-small", data={"act": "cpu-retry"})
                 if cpu_state == "failed" and kind == "cpu" else None,
                 cls="tf-menu-foot"),
               cls=["tf-panel", "tf-menu", f"tf-menu-{kind}"]),
             id="screen-menu", cls="tf-screen tf-screen-center", data={"mode": mode})
