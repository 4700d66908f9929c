"""The element trees of render.py: stable ids, disabled choices with reasons, no secrets."""

from __future__ import annotations

from tests.ui.games import game

from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui import render as r
from trifront.ui import screens
from trifront.ui.html import h
from trifront.ui.screens import replay, results  # noqa: F401 (loaded after a page's start)


def board(g, p=0, sel=m.Selection(), names=None, **kw):
    return screens.board.board_screen(g.view(p), names or {0: "You", 1: "CPU"}, sel, **kw)


def test_board_has_stable_hooks():
    g = game([8, 0, 2, 20, 12], [1, 3, 5, 7, 9])
    tree = board(g)
    assert tree.attrs["id"] == "screen-board"
    for sel in ("#btn-pass", "#btn-resign", "#btn-help", "#hand-me", "#hand-opp", "#lanes",
                "#scores", "#turn", "#last-action", "#log", "#prompt"):
        assert tree.find(sel) is not None, sel
    assert [e.attrs["data-lane"] for e in tree.find_all(".tf-lane")] == [0, 1, 2]
    mine = tree.find("#hand-me").find_all("[data-card-id]")
    assert sorted(e.attrs["data-card-id"] for e in mine) == [0, 2, 8, 12, 20]
    assert all(e.attrs["data-act"] == "select" for e in mine)
    assert not tree.find("#btn-pass").attrs.get("disabled")
    assert "Round 1" in tree.find("#round").text()


def test_opponent_hand_is_backs_without_ids():
    """R7.2: the opponent's hand is drawn as backs that carry no card id."""
    g = game([8, 0, 2, 20, 12], [1, 3, 5, 7, 9])
    opp = board(g).find("#hand-opp")
    backs = opp.find_all(".tf-back")
    assert len(backs) == 5
    assert not opp.find_all("[data-card-id]")
    assert "Hand 5" in board(g).find("#handsize-opp").text()


def test_lane_step_disables_illegal_lanes_with_reason_inline_and_as_tooltip():
    g = game([20, 0, 2, 4, 12], [1, 3, 5, 7, 9])
    tree = board(g, sel=m.Selection(20))
    left, center = tree.find("#btn-lane-0"), tree.find("#btn-lane-1")
    assert not left.attrs.get("disabled")
    assert center.attrs["disabled"] is True
    assert "R4.3" in center.attrs["title"]
    # Center and Right are closed for one reason: said once, under the prompt
    why = tree.find("#lanes-why").text()
    assert why.startswith("Center and Right: ") and why.count("R4.3") == 1, why
    assert "R4.3" not in center.text() and not center.find(".tf-btn-why")
    lanes = tree.find_all(".tf-lane")
    assert "tf-lane-pick" in lanes[0].classes and "tf-lane-blocked" in lanes[1].classes
    assert lanes[0].attrs["data-act"] == "lane" and "data-act" not in lanes[1].attrs
    assert tree.find("#btn-cancel") and not tree.find("#btn-back")   # one way out, not two


def test_a_single_closed_lane_keeps_its_reason_on_its_button():
    """One closed lane: its reason inline, no shared line (a Draft Engineer, R5.C5)."""
    import random
    from trifront.cards import EFFECTS, GROUPS
    from trifront.game import Game
    rng = random.Random(3)
    by_group = {g: [e for e, x in EFFECTS.items() if x.group == g] for g in GROUPS}
    g = Game.new("draft", [{k: rng.choice(by_group[k]) for k in GROUPS} for _ in range(2)], 0, 3)
    while len(g.state.history) < 11:
        g.apply(rng.choice(g.legal_actions()))
    tree = board(g, p=g.to_move, sel=m.Selection(16))
    closed = [b for b in tree.find_all(".tf-btn-lane") if b.attrs.get("disabled")]
    assert len(closed) == 1 and "R5.C5" in closed[0].find(".tf-btn-why").text()
    assert tree.find("#lanes-why") is None


def test_a_card_with_no_lane_open_says_so_briefly():
    """An Engineer with no empty lane (R4.3, R5.C5) prompted
    "choose a lane" over three closed lanes, and each lane's reason also explained that an
    Engineer cannot go face-down, which no lane could change; at 667 x 375 the bar grew
    over the hand."""
    engineer = {"A": "supply", "B": "recon", "C": "engineer", "D": "strategic"}
    g = game([19, 0, 2, 4, 6], [1, 3, 5, 7, 9], eff0=engineer)
    for lane in (0, 1, 2):
        g.apply({"type": "play", "card": [0, 2, 4][lane], "lane": lane, "face": "up"})
        g.apply({"type": "play", "card": [1, 3, 5][lane], "lane": lane, "face": "up"})
    tree = board(g, sel=m.Selection(19))
    assert all(b.attrs.get("disabled") for b in tree.find_all(".tf-btn-lane"))
    prompt = tree.find("#prompt").text()
    assert "cannot be played now" in prompt and "choose a lane" not in prompt, prompt
    why = tree.find("#lanes-why").text()
    assert why == ("Left, Center and Right: Engineer only goes into a lane where neither "
                   "player has a card (R4.3, R5.C5)"), why
    assert "face-down" not in why.lower()


def test_face_step_buttons():
    g = game([8, 0, 2, 4, 12], [1, 3, 5, 7, 9])
    tree = board(g, sel=m.Selection(8, 1))
    assert tree.find("#btn-up").attrs["data-face"] == "up"
    assert tree.find("#btn-down").attrs["data-face"] == "down"
    assert "tf-lane-chosen" in tree.find_all(".tf-lane")[1].classes


def test_target_step_lists_targets_and_no_target_and_marks_board_cards():
    g = game([8, 0, 2, 4, 6], [16, 1, 3, 5, 7], first=1)
    g.apply({"type": "play", "card": 16, "lane": 2, "face": "down"})
    tree = board(g, sel=m.Selection(8, 0, "up"))
    assert tree.find("#btn-no-target") is not None
    t0 = tree.find("#btn-target-t0")
    assert t0.text() == "Face-down card, right lane"
    marked = tree.find_all(".tf-targetable")
    assert len(marked) == 1 and marked[0].attrs["data-target-key"] == "t0"


def test_thinking_and_not_my_turn():
    g = game([8, 0, 2, 4, 6], [16, 1, 3, 5, 7])
    g.apply({"type": "pass"})
    tree = board(g, thinking=True)
    assert tree.attrs["data-thinking"] == "1"
    assert "CPU is thinking…" in tree.find("#turn").text()
    assert tree.find("#btn-pass").attrs["disabled"] is True
    assert all("tf-dim" in e.classes for e in tree.find("#hand-me").find_all("[data-card-id]"))


def test_menu_draft_handover_round_over_screens():
    assert screens.menu.menu_screen({"kind": "cpu", "first": "0", "mode": "normal"}).find("#btn-start")
    d = screens.draft.draft_screen("You", {"A": "supply"})
    assert d.find("#draft-A-supply").attrs["aria-pressed"] == "true"
    assert d.find("#btn-draft-confirm").attrs["disabled"] is True
    h = screens.handover.handover_screen("Player 2")
    assert h.find("#btn-handover").text() == "I am Player 2 — show my hand"
    assert not h.find_all("[data-card-id]")

    g = game([16, 0, 2, 4, 6], [18, 1, 3, 5, 7])
    g.apply({"type": "play", "card": 16, "lane": 0, "face": "down"})
    g.apply({"type": "play", "card": 18, "lane": 0, "face": "down"})
    while not g.state.rounds:
        g.apply({"type": "pass"})
    names = {0: "You", 1: "CPU"}
    rs = screens.results.round_screen(g.view(0), names)
    assert rs.attrs["id"] == "screen-round" and rs.find("#btn-continue")
    assert [e.text() for e in rs.find_all(".tf-lane-result")] == ["CPU wins", "Draw", "Draw"]
    assert not rs.find_all(".tf-back")  # everything revealed (R3.6)
    g.apply({"type": "resign", "player": 0}, player=0)
    over = screens.results.over_screen(g.view(0), names, rematch=True)
    assert over.find("#over-title").text() == "CPU wins"
    assert "resigned" in over.text() and over.find("#btn-again").attrs["data-act"] == "rematch"
    online = screens.results.over_screen(g.view(0), names)             # online: no rematch, the menu
    assert online.find("#btn-again") is None and online.find("#btn-over-menu")


def test_disabled_button_keeps_reason():
    b = r.button("Pass", "pass", id="btn-pass", enabled=False, reason="Not your turn",
                 inline_reason=True)
    assert b.attrs["disabled"] is True and b.attrs["title"] == "Not your turn"
    assert b.find(".tf-btn-why").text() == "Not your turn"


def test_what_belongs_to_you_is_yours_not_you_s():
    """"Your hand", "Your total", "Your discard pile" — never "You's"."""
    from trifront.ui import i18n
    g = game([8, 0, 2, 20, 12], [1, 3, 5, 7, 9])
    for lang, mine, theirs in (("en", "Your", "CPU's"), ("ja", "あなたの", "CPUの")):
        i18n.set_lang(lang)
        try:
            names = {0: i18n.t("name.you"), 1: "CPU"}
            tree = board(g, names=names)
            assert tree.find("#hand-me").attrs["aria-label"].startswith(mine)
            assert tree.find('[data-lane-total="me"]').attrs["title"].startswith(mine)
            assert screens.common.discard_modal(g.view(0), 0, names).text().startswith(mine)
            assert screens.common.discard_modal(g.view(0), 1, names).text().startswith(theirs)
        finally:
            i18n.set_lang("en")


def test_the_export_box_of_a_finished_game_does_not_call_it_running():
    g = game([8, 0, 2, 20, 12], [1, 3, 5, 7, 9])
    record = g.record()
    running = screens.common.export_modal(record, "http://x/#replay=a", 3).text()
    done = screens.common.export_modal(record, "http://x/#replay=a", 3, finished=True).text()
    assert "so far" in running and "running" in running
    assert "so far" not in done and "running" not in done and "whole game" in done


def test_confirmations_start_on_the_safe_choice():
    """Resign and an early pass cannot be taken back: Enter twice keeps playing."""
    for dialog, safe in ((screens.board.resign_modal("You"), "btn-resign-cancel"),
                         (screens.board.pass_modal(2), "btn-pass-cancel")):
        focused = [e.attrs.get("id") for e in dialog.iter() if e.attrs.get("data-autofocus")]
        assert focused == [safe], focused


def test_a_record_file_is_named_for_its_game():
    from trifront.game import Game
    g = Game.new("normal", seed=1234567)
    g.apply(g.legal_actions()[0])
    assert r.record_filename(g.record()) == "trifront-normal-34567-1.json"
    assert r.record_filename({}) == "trifront-game-00000-0.json"
    # sealed games' told records have no seed: their draws tell them apart
    told = [{"mode": "normal", "seed": None, "actions": [], "told": {"draws": [[i], [2]],
             "rolls": [], "shown": []}} for i in (0, 1)]
    names = {r.record_filename(t) for t in told}
    assert len(names) == 2 and all(n.startswith("trifront-normal-") for n in names)


def test_the_board_says_the_round_s_number_once():
    """The top bar says "Round 2"; the log heads that round's moves "This round" (its earlier
    rounds keep their number and result), in English and Japanese."""
    g = game([8, 0, 2, 20, 12], [1, 3, 5, 7, 9])
    g.apply({"type": "pass"}, player=0)
    g.apply({"type": "pass"}, player=1)
    g.apply(next(a for a in g.view(g.to_move)["legal"] if a["type"] == "play"),
            player=g.to_move)
    for lang, number, this in (("en", "Round 2", "This round"), ("ja", "第2ラウンド", "このラウンド")):
        i18n.set_lang(lang)
        try:
            tree = board(g)
        finally:
            i18n.set_lang("en")
        assert tree.find("#round").text() == number
        heads = [e.text() for e in tree.find_all(".tf-log-round")]
        assert heads[0] == this and all(number not in head for head in heads), heads
        assert len(heads) == 2 and heads[1].startswith(number.replace("2", "1")), heads


def test_a_notice_has_its_own_room_on_every_screen():
    """On the board over the prompt; with a window open, at the top of its body; on a screen
    without a prompt (the menu), in the flow at the top of the panel: never pinned over the
    page, where it lay on the menu's crest."""
    g = game([8, 0, 2, 20, 12], [1, 3, 5, 7, 9])
    root = r.app_root(board(g), toast="Link copied.")
    assert root.find(".tf-prompt-box").find("#toast") is not None
    menu = screens.menu.menu_screen({"kind": "cpu", "first": "0", "mode": "normal", "strength": "normal",
                        "room": "", "relay": "", "clock": "none", "conn": "0"},
                       None, ("easy", "normal", "hard"))
    root = r.app_root(menu, toast="Link copied.")
    panel = root.find(".tf-panel")
    assert panel.children[0].attrs.get("id") == "toast"
    assert "tf-toast-flow" in panel.children[0].classes
    window = r.modal("modal-x", "A window", h("p", "text"))
    root = r.app_root(board(g), overlay=window, toast="Link copied.")
    assert root.find(".tf-modal-body").children[0].attrs.get("id") == "toast"
    assert root.find(".tf-prompt-box").find("#toast") is None
