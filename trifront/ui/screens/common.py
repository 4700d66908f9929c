"""What every screen offers: the language, help, the modals that look things up (a card,
a discard pile, the log, the record to export), the toast, Escape, and "Menu"."""

from __future__ import annotations

from trifront.game import Game
from trifront.replay import share_fragment
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui.html import El, h
from trifront.ui.i18n import t
from trifront.ui.render import (GROUP_CLASS, button, card_el, log_items, modal, record_filename,
                                record_href)
from trifront.ui.screens.base import on, overlay


@on("lang")
def lang(app, data: dict) -> None:
    """Switch the page's language (remembered with the settings)."""
    app.lang = i18n.set_lang(data.get("lang", "en"))
    app.save_settings()


@on("help")
def help_(app, data: dict) -> None:
    app.help_tab = "rules"
    app.overlay = ("help",)


@on("help-tab")
def help_tab(app, data: dict) -> None:
    app.help_tab = "effects" if data.get("tab") == "effects" else "rules"
    app.overlay = ("help",)


@on("close-modal", "backdrop")
def close_modal(app, data: dict) -> None:
    app.overlay = None


@on("history-back")
def history_back(app, data: dict) -> None:
    """The browser's Back button (dom.History): step up until the page is as deep as the
    history entry the browser went back to (``depth``, App.history_depth): a review or a
    replay closes; a game goes to the menu, kept where the seat keeps games ("Menu"); the
    tutorial is skipped; an online match or a spectator leaves its room (a reload or the
    same room word brings a match back)."""
    try:
        target = max(0, int(data.get("depth", 0)))
    except (TypeError, ValueError):
        target = 0
    for _ in range(4):
        depth = app.history_depth()
        if depth <= target:
            return
        back_step(app)
        if app.history_depth() >= depth:
            return      # nothing closed: the page stays (and History puts the entry back)


def back_step(app) -> None:
    from trifront.ui.screens import handler
    if app.overlay == ("review",):
        handler("close-modal")(app, {})
    elif app.replay is not None:
        handler("replay-close")(app, {})
    elif app.screen == "watch":
        handler("watch-leave")(app, {})
    elif (app.screen == "board" and app.seat.offers_leave and isinstance(app.game, Game)
          and not app.game.over):
        handler("leave")(app, {})
    else:
        handler("tutorial-skip")(app, {})     # nothing unless in the tutorial
        if app.screen != "menu":
            menu(app, {})


@on("dismiss-toast")
def dismiss_toast(app, data: dict) -> None:
    app.toast = ""


@on("escape")
def escape(app, data: dict) -> None:
    if app.seat.dismiss():
        return
    if app.overlay:
        app.overlay = None
    elif app.screen == "board":
        app.hints.clear()
        app.sel = app.sel.back()


@on("menu")
def menu(app, data: dict) -> None:
    """Back to the menu: an online match is left (forgotten when finished), a finished or
    abandoned game's save dropped."""
    if app.match is not None:
        app.seat.close(finished=app.game is not None and app.game.over)
        if app.set_address is not None:
            # left: a reload opens the menu, with the player's own settings
            app.set_address({"room": "", "signal": "", "relay": ""})
    app.gen += 1
    app.thinking = False
    if app.seat.saves and (isinstance(app.game, Game) or app.persist.saved_draft is not None):
        app.forget_game()   # a game that was never saved (the tutorial) leaves the save alone
    app.game = None
    app.overlay = None
    app.show("menu")


@on("cpu-retry")
def cpu_retry(app, data: dict) -> None:
    """The player asks to start the CPU's worker again (it failed); moves wait for it."""
    if app.cpu.retry():
        app.notice = ""
        app.cpu_retrying = True
        app.tell(i18n.t("msg.cpu_retry_now"))


@on("cpu-easy")
def cpu_easy(app, data: dict) -> None:
    """The player takes the offer: the CPU plays Easy from now on (and in later games)."""
    app.opts["strength"] = "easy"
    app.save_settings()
    app.tell(i18n.t("msg.cpu_easy_now"))


# ------------------------------------------------------------------- looking things up

@on("show-discard")
def show_discard(app, data: dict) -> None:
    if app.game is not None:
        app.overlay = ("discard", int(data["player"]))


@on("show-log")
def show_log(app, data: dict) -> None:
    if app.game is not None:
        app.overlay = ("log",)


@on("inspect")
def inspect(app, data: dict) -> None:
    if data.get("card-id") in (None, ""):
        return
    if app.replay is not None:
        view = app.replay.shown_view()
    elif app.game is None:
        return
    else:
        view = app.view()
    owner, cid = int(data["owner"]), int(data["card-id"])
    card = found = None
    if app.screen == "round" and view.get("rounds"):
        for lane in view["rounds"][-1]["lanes"]:
            for c in lane["sides"][owner]:
                if c.get("id") == cid:
                    card = c
    if card is None:
        found = m.find_card(view, owner, cid)
        card = found[1] if found else None
    if card is None and view.get("revealed"):
        for c in view["hands"][owner]:
            if c.get("id") == cid:
                card = c
    if card is not None and not card.get("hidden"):
        in_hand = found is not None and found[0] == "hand" and owner == view.get("me")
        app.overlay = ("inspect", m.card_face(card), m.power_breakdown(card),
                       m.if_played(card, view) if in_hand else None)


def share_url(app, record: dict) -> str:
    """A share link; for a game still running it names the sharer's seat (R7.2: the
    viewer then shows only that player's view until the game is over)."""
    seat = None if app.game is None or app.game.over else app.seat.acting()
    return f"{app.page_url or ''}#{share_fragment(record, seat)}"


@on("export")
def export(app, data: dict) -> None:
    if isinstance(app.game, Game) or (app.game is not None and app.game.record()):
        app.overlay = ("export",)


@on("copy-link")
def copy_link(app, data: dict) -> None:
    """Copy a link; the button that did it says so until the next click (App.copied), and
    the toast tells a screen reader."""
    if app.copy_text is not None and app.copy_text(data.get("text", "")):
        app.copied = data.get("copied", "")
        app.tell(i18n.t("export.copied"))
    else:
        app.toast = i18n.t("export.copy_failed")


@on("share-link")
def share_link(app, data: dict) -> None:
    """The browser's share sheet for a link (an invitation); a page without one copies."""
    if app.share_link is None or not app.share_link(data.get("text", ""),
                                                    data.get("title", "")):
        copy_link(app, data)


@overlay("help")
def draw_help_modal(app):
    return help_modal(app.help_tab)


@overlay("discard")
def draw_discard_modal(app):
    return discard_modal(app.view(), app.overlay[1], app.names) if app.game is not None else None


@overlay("inspect")
def draw_inspect_modal(app):
    in_hand = app.overlay[3] if len(app.overlay) > 3 else None
    return (inspect_modal(app.overlay[1], app.overlay[2], in_hand=in_hand)
            if app.game is not None else None)


@overlay("log")
def draw_log_modal(app):
    return log_modal(app.view(), app.names) if app.game is not None else None


def game_record(app) -> dict | None:
    """The running game's record, with who plays each seat when the seat says (a replay of
    a game against the CPU then names "You" and "CPU")."""
    record = app.game.record() if app.game is not None else None
    players = app.seat.players()
    if record is not None and players is not None:
        record = {**record, "players": players}
    signed = getattr(app.seat, "signed", lambda: None)()
    if record is not None and signed is not None:
        record = {**record, "signed": signed}
    return record


@overlay("export")
def draw_export_modal(app):
    record = game_record(app)
    if record is None:
        return None
    return export_modal(record, share_url(app, record), len(record["actions"]),
                          finished=app.game.over)


# ---------------------------------------------------------------------- drawing

def export_modal(record: dict, share_url: str, n_actions: int, finished: bool = False) -> El:
    """A record as a file download and as a share link (the record in the URL fragment)."""
    return modal("modal-export", t("export.title"),
                 h("p", t("export.actions_done" if finished else "export.actions", n=n_actions),
                   cls="tf-sub"),
                 h("p", h("a", t("export.file"), id="btn-record-file",
                          cls="tf-btn tf-btn-ghost", href=record_href(record),
                          download=record_filename(record), title=t("export.file_title"))),
                 h("label", t("export.link"), for_="share-replay-link", cls="tf-field-label"),
                 h("input", id="share-replay-link", cls="tf-input", type="text",
                   value=share_url, readonly=True, data={"select": "1"}),
                 h("p", t("export.link_note_done" if finished else "export.link_note"),
                   cls="tf-sub"),
                 actions=[button(t("export.copy"), "copy-link", id="btn-copy-link",
                                 cls="tf-btn-ghost",
                                 data={"text": share_url, "copied": "btn-copy-link"}),
                          button(t("export.replay"), "watch-replay", id="btn-export-replay",
                                 cls="tf-btn-primary") if finished else None])


HELP = [("help.goal", "help.goal_text"), ("help.deck", "help.deck_text"),
        ("help.round", "help.round_text"), ("help.facedown", "help.facedown_text"),
        ("help.targets", "help.targets_text"), ("help.scoring", "help.scoring_text"),
        ("help.end", "help.end_text"), ("help.modes", "help.modes_text"),
        ("help.inspect", "help.inspect_text"), ("help.keys", "help.keys_text")]


def help_modal(tab: str = "rules") -> El:
    """The rules page and the effect reference by group (two tabs)."""
    tabs = h("div",
             button(t("help.tab_rules"), "help-tab", id="help-tab-rules",
                    pressed=tab == "rules", cls="tf-btn-ghost tf-btn-small",
                    data={"tab": "rules"}),
             button(t("help.tab_effects"), "help-tab", id="help-tab-effects",
                    pressed=tab == "effects", cls="tf-btn-ghost tf-btn-small",
                    data={"tab": "effects"}),
             cls="tf-help-tabs", role="group", aria_label=t("help.title"))
    if tab == "effects":
        groups = []
        for group, _ranks, tiles in m.draft_groups({}):
            items = []
            for tile in tiles:
                kind = t(f"inspect.kind.{i18n.EFFECTS[tile.id].kind}")
                items.append(h("li", h("b", tile.name), f" ({tile.rule} · {kind}) — ",
                               tile.text, id=f"help-effect-{tile.id}"))
            groups.append(h("div", h("h3", t("help.group", g=group,
                                              ranks=m.GROUP_RANGE[group])),
                            h("ul", items), cls=["tf-help-group", GROUP_CLASS[group]]))
        body = [h("p", t("help.normal_set"), cls="tf-sub"),
                h("div", groups, cls="tf-help-effects", id="help-effects")]
    else:
        body = [h("div", [h("div", h("h3", t(k)), h("p", t(v)), cls="tf-help-item")
                          for k, v in HELP], cls="tf-help", id="help-rules"),
                h("p", t("help.rule_ids"), cls="tf-sub")]
    return modal("modal-help", t("help.title"), tabs, *body,
                 actions=[button(t("help.ok"), "close-modal", id="btn-help-close",
                                 cls="tf-btn-primary")], wide=True)


def discard_modal(view: dict, p: int, names: dict[int, str]) -> El:
    cards = [card_el(m.card_face(c), size="sm", zone="discard", act="inspect")
             for c in view["discards"][p]]
    return modal("modal-discard", i18n.t_of("discard.title", names[p], n=len(cards)),
                 h("div", cards or [h("p", t("discard.empty"), cls="tf-empty")],
                   cls="tf-discard-grid"),
                 h("p", t("discard.note"), cls="tf-sub"),
                 wide=True)


def log_modal(view: dict, names: dict[int, str]) -> El:
    """Every action of the game from this player's side (R7.1), grouped by round."""
    items = log_items(view, names, limit=10_000)
    return modal("modal-log", t("log.modal"),
                 h("ol", items or [h("li", t("log.empty"))], cls="tf-log tf-log-full",
                   tabindex="0", aria_label=t("log.modal"),
                   id="log-full"),
                 wide=True)


def inspect_modal(face: m.CardFace, breakdown: list | None = None,
                  in_hand: str | None = None) -> El:
    """Everything about one card: effect text, rank, group, current power and why.
    ``in_hand``: one of the player's hand cards, with what playing it would make of its
    power (model.if_played; "" when nothing)."""
    rows = []
    for label, amount, kind in breakdown or ():
        rows.append(h("tr", h("th", label, scope="row"), h("td", amount),
                      cls=f"tf-why-{kind}"))
    facts = []
    if face.effect not in (None, "soldier") and face.effect in i18n.EFFECTS:
        info = i18n.EFFECTS[face.effect]
        facts.append(h("p", h("b", face.name),
                       f" · {info.rule} · {t('inspect.kind.' + info.kind)}"))
    else:
        facts.append(h("p", h("b", face.name)))
    facts.append(h("p", face.full, id="inspect-text"))
    facts.append(h("p", t("inspect.rank", rank=face.rank) if face.rank
                   else t("inspect.rank_none"),
                   f" · {t('inspect.group', group=face.group, ranks=m.GROUP_RANGE[face.group])}"
                   if face.group else ""))
    facts.append(h("p", h("b", t("inspect.power_now" if in_hand is None else "inspect.power_hand",
                                 n=face.power)), id="inspect-power"))
    if in_hand:
        facts.append(h("p", in_hand, id="inspect-if-played", cls="tf-note"))
    if rows:
        facts.append(h("table", h("caption", t("inspect.why")), h("tbody", rows),
                       cls="tf-why", id="inspect-why"))
    if face.face_down:
        facts.append(h("p", t("inspect.facedown"), cls="tf-sub"))
    if face.known:
        facts.append(h("p", t("inspect.known"), cls="tf-sub"))
    if face.exposed:
        facts.append(h("p", t("inspect.exposed"), cls="tf-sub"))
    return modal("modal-inspect", face.label,
                 h("div", card_el(face, size="lg"), h("div", facts, cls="tf-inspect-text"),
                   cls="tf-inspect"),
                 actions=[button(t("inspect.close"), "close-modal", id="btn-inspect-close",
                                 cls="tf-btn-primary")])
