"""Languages (trifront/ui/i18n.py): both tables hold the same keys, and every screen rendered
in Japanese shows no English — so no user-visible string is left hard-coded in render/model."""

from __future__ import annotations

import re
import string

import pytest
from tests.ui.games import game

from trifront.cards import EFFECTS
from trifront.replay import Replay
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui import render as r
from trifront.ui import screens
from trifront.ui.screens import replay, results  # noqa: F401 (loaded after a page's start)
from trifront.ui.html import El

PRIEST = {"A": "priest", "B": "tactician", "C": "envoy", "D": "strategic"}

#: English-looking words a Japanese screen may show: names, file formats, key caps, rule ids.
ALLOWED = {"TriFront", "CPU", "RULES", "docs", "JSON", "trifront", "record", "Tab", "Enter", "Space",
           "Esc", "aoi", "kitsune", "Nostr"}


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.set_lang("en")


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_both_languages_have_exactly_the_same_keys_and_placeholders():
    assert set(i18n.EN) == set(i18n.JA)
    for key in i18n.EN:
        assert fields(i18n.EN[key]) == fields(i18n.JA[key]), key
        assert i18n.JA[key].strip(), key


def test_effect_names_and_texts_in_both_languages_from_the_seed():
    for eid in EFFECTS:
        for lang in ("ja", "en"):
            i18n.set_lang(lang)
            table = i18n.TABLES[lang]
            assert i18n.effect_name(eid) == table[f"effect.{eid}"].strip() != ""
            assert i18n.effect_text(eid) == table[f"effect_text.{eid}"].strip() != ""
            assert i18n.effect_name(eid, "ja") == i18n.JA[f"effect.{eid}"]
    i18n.set_lang("ja")     # the seed's own words
    assert i18n.effect_name("strategic") == "攻城兵器"
    assert i18n.effect_text("envoy") == "配置不可（捨て専）　捨てる：1枚引く"
    i18n.set_lang("en")


def test_language_detection():
    assert i18n.detect(["ja-JP"]) == "ja"
    assert i18n.detect(["de-DE", "ja"]) == "ja"
    assert i18n.detect(["en-GB", "ja"]) == "en"
    assert i18n.detect(["fr"]) == "en" and i18n.detect(None) == "en"
    assert i18n.set_lang("xx") == "en"


def test_engine_reasons_are_said_in_the_page_s_language():
    from trifront.reasons import Reason
    i18n.set_lang("ja")
    assert i18n.reason_words(Reason("R4.3", "siege", {"rank": 12, "lane": 1})) == \
        "攻城兵器12は中央レーンにしか出せません (R5.D1)"
    assert i18n.reason_words({"rule": "R4.3", "code": "unplayable",
                              "args": {"effect": "envoy", "cites": "R5.C3"}}) == \
        "密使は場に出せません。捨てて使います (R5.C3)"
    assert i18n.reason_words(Reason("R4.3", "face_up_only",
                                    {"effect": "general", "cites": "R5.D2"})) == \
        "大将軍は表でしか出せません (R5.D2)"
    i18n.set_lang("en")
    assert i18n.reason_words(Reason("R4.3", "siege", {"rank": 12, "lane": 1})) == \
        "Siege Engine 12 may only go to the center lane (R5.D1)"


def test_every_reason_code_has_its_words_in_each_language():
    """The engine speaks codes (trifront/reasons.py): each code the rules can give has its
    text in every catalogue, with the same placeholders."""
    from trifront.effects.kinds import TARGET_KINDS
    from trifront.reasons import ENGLISH
    TARGET_CODES = {k.name: k.code for k in TARGET_KINDS}
    assert set(TARGET_CODES.values()) <= set(ENGLISH)
    for code, english in ENGLISH.items():
        fields = set(re.findall(r"\{(\w+)\}", english))
        for lang, table in i18n.TABLES.items():
            text = table.get("why." + code)
            assert text, (lang, code)
            assert set(re.findall(r"\{(\w+)\}", text)) == fields, (lang, code)
    assert i18n.EN["why.siege"] == ENGLISH["siege"]


def test_a_reason_of_unknown_code_or_odd_values_reads_as_words_never_fails():
    for reason in ({"rule": "R9", "code": "from_a_newer_engine", "args": {}},
                   {"rule": "R4.3", "code": "siege", "args": {"rank": 12, "lane": 7}},
                   {"rule": "R4.3", "code": "unplayable", "args": {"effect": "nope"}},
                   {"rule": "R4.3", "code": "siege", "args": "x"}):
        for lang in ("en", "ja"):
            i18n.set_lang(lang)
            assert isinstance(i18n.reason_words(reason), str) and i18n.reason_words(reason)
    i18n.set_lang("en")


# --- every screen in Japanese ---------------------------------------------------------------


def visible_text(tree: El) -> str:
    """Text nodes and the attributes people read or hear (title, aria-label, placeholder),
    except inside an element marked as another language (the language switch: "English")."""
    out = []
    lang = i18n.get_lang()
    inside_links: set[int] = set()
    for el in _iter_same_lang(tree, lang):
        if id(el) in inside_links:
            continue
        if el.tag == "a":   # a link reads as one piece (online_render.link_el splits it)
            out.append(_flat_text(el))
            inside_links.update(id(d) for d in el.iter())
        else:
            out.append("".join(str(c) for c in el.children if not isinstance(c, El)))
        for attr in ("title", "aria-label", "placeholder", "alt"):
            if attr in el.attrs:
                out.append(str(el.attrs[attr]))
    return "\n".join(out)


def _flat_text(el: El) -> str:
    return "".join(_flat_text(c) if isinstance(c, El) else str(c) for c in el.children)


def _iter_same_lang(el: El, lang: str):
    if el.attrs.get("lang") not in (None, lang):
        return
    yield el
    for c in el.children:
        if isinstance(c, El):
            yield from _iter_same_lang(c, lang)


def english_words(text: str) -> list[str]:
    text = re.sub(r"R\d[\w.]*", " ", text)             # rule ids (R4.3, R5.D1)
    text = re.sub(r"\w+://\S+", " ", text)              # addresses (invite links, the relay)
    words = re.findall(r"[A-Za-z]{3,}", text)
    return [w for w in words if w not in ALLOWED]


def screens_in_japanese() -> dict[str, El]:
    """Every screen and window of the page, in Japanese, in several states."""
    i18n.set_lang("ja")
    names = m.player_names("cpu", 0)
    local = m.player_names("local")
    out: dict[str, El] = {}
    out["menu-cpu"] = screens.menu.menu_screen({"kind": "cpu", "first": "0", "mode": "normal",
                                     "strength": "normal"}, {"cpu_state": "ready"},
                                    ("easy", "normal", "hard"))
    out["menu-local"] = screens.menu.menu_screen({"kind": "local", "first": "1", "mode": "draft"},
                                      {"cpu_state": "failed"})
    out["draft"] = screens.draft.draft_screen(local[0], {"A": "priest"},
                                  i18n.t("draft.note", name=local[0], other=local[1]))
    out["reveal"] = screens.draft.reveal_screen(names, [PRIEST, PRIEST])
    out["wait"] = screens.draft.wait_screen(i18n.t("wait.cpu_draft"))
    out["error"] = r.error_screen(i18n.t("error.friendly"))
    out["handover"] = screens.handover.handover_screen(local[1], i18n.t("handover.draft", name=local[1]))
    # a board with a Siege Engine (lanes refused with reasons), an Envoy (discard only)
    g = game([20, 16, 2, 4, 12], [1, 3, 5, 7, 9], eff0=PRIEST)
    v = g.view(0)
    out["board"] = screens.board.board_screen(v, names, m.Selection(), can_export=True)
    out["board-lane"] = screens.board.board_screen(v, names, m.Selection(20))
    out["board-envoy"] = screens.board.board_screen(v, names, m.Selection(16))
    out["board-face"] = screens.board.board_screen(v, names, m.Selection(2, 1))
    out["board-target"] = screens.board.board_screen(v, names, m.Selection(2, 1, "up"))
    out["board-thinking"] = screens.board.board_screen(g.view(0), names, m.Selection(), thinking=True,
                                           notice=i18n.t("msg.cpu_page"))
    # face-down plays, recon targets, a log with every kind of line
    g2 = game([8, 0, 2, 4, 6], [16, 18, 3, 5, 7], first=1)
    g2.apply({"type": "play", "card": 16, "lane": 2, "face": "down"})
    g2.apply({"type": "play", "card": 0, "lane": 0, "face": "up"})
    g2.apply({"type": "play", "card": 18, "lane": 2, "face": "down"})
    v2 = g2.view(0)
    out["board-recon"] = screens.board.board_screen(v2, names, m.Selection(8, 0, "up"))
    g2.apply({"type": "play", "card": 8, "lane": 0, "face": "up",
              "target": {"slot": [2, 0]}}, player=0)
    out["board-log"] = screens.board.board_screen(g2.view(1), names, m.Selection())
    out["log"] = screens.common.log_modal(g2.view(1), names)
    out["discard"] = screens.common.discard_modal(g2.view(0), 0, names)
    card = g2.view(0)["lanes"][2]["sides"][1][0]
    out["inspect"] = screens.common.inspect_modal(m.card_face(card), m.power_breakdown(card))
    while not g2.state.rounds:
        g2.apply({"type": "pass"})
    out["round"] = screens.results.round_screen(g2.view(0), names)
    record = g2.record()
    out["export"] = screens.common.export_modal(record, "http://x/#replay=abc", len(record["actions"]))
    g2.apply({"type": "resign", "player": 0}, player=0)
    out["over"] = screens.results.over_screen(g2.view(0), names, g2.record(), "http://x/#replay=abc")
    rp = Replay(g2.record())
    for k, persp in ((0, "0"), (3, "1"), (rp.n, "all")):
        view = rp.view(k, persp)
        move, rtext = m.replay_texts(view, local, k, 0)
        out[f"replay-{k}-{persp}"] = screens.replay.replay_screen(
            m.ReplayModel(view, k, rp.n, persp, True, True, False, move, rtext), local)
    out["help-rules"] = screens.common.help_modal("rules")
    out["help-effects"] = screens.common.help_modal("effects")
    out["resign"] = screens.board.resign_modal(names[0])
    out["open-replay"] = screens.replay.open_replay_modal("", i18n.t("replay.bad",
                                                         why=i18n.t("replay.bad_damaged_link")))
    out["root"] = r.app_root(out["menu-cpu"], toast=i18n.t("msg.save_corrupt"))
    out.update(online_screens())
    return out


def status(net, role=None, claim=None, report=None, claimed=False, phase=None, slow=False):
    """A match's status (what online_render draws), in any state."""
    from trifront.net.match import MatchStatus
    return MatchStatus(room="aoi", relay="ws://127.0.0.1:8765/", net=net, detail="",
                       role=role, me=1 if role == "guest" else 0, phase=phase, mode="normal",
                       game_id=None, started=role is not None, n=None, pending=False,
                       picked=False, claimed=claimed, claim_in=claim, slow_connect=slow,
                       busy=None, refusal=None, report=report)


def online_screens() -> dict[str, El]:
    from trifront.net.fairness import Report
    from trifront.ui import online_render as onr
    out = {"online-menu": screens.menu.menu_screen({"kind": "online", "mode": "normal"},
                                        online_rows=onr.menu_rows({"room": "aoi"}, "http://x/"))}
    for net in ("relay", "waiting", "connecting", "connected", "problem", "reconnecting",
                "full", "expired", "error"):
        for role, claim in ((None, None), ("host", 12.0), ("guest", 0.0)):
            m_ = status(net, role, claim, phase="seeding")
            out[f"online-banner-{net}-{role}"] = onr.banner(m_)
            out[f"online-lobby-{net}-{role}"] = onr.lobby_screen(m_, "http://x/")
    checks = [(n, ok, "") for n, ok in (("keys", True), ("decks", True), ("draws", True),
                                        ("randomness", True), ("moves", False),
                                        ("claims", True), ("result", True),
                                        ("transcript", True), ("reveal", True))]
    for fair in (True, False):
        rep = Report(checks if not fair else [(n, True, d) for n, _ok, d in checks])
        out[f"online-fair-{fair}"] = onr.fairness_box(status("connected", "guest",
                                                                report=rep))
    out["online-lobby-slow"] = onr.lobby_screen(status("connecting", slow=True), "http://x/")
    out["online-fair-host"] = onr.fairness_box(status("connected", "host"))
    out["online-retired"] = r.app_root(out["online-menu"], toast=i18n.t("msg.online_save_retired"))
    out["online-fair-claimed"] = onr.fairness_box(status("waiting", "guest", claimed=True))
    out["online-fair-pending"] = onr.fairness_box(status("connected", "guest"))
    return out


def test_no_english_on_any_japanese_screen():
    found = {}
    for name, tree in screens_in_japanese().items():
        words = english_words(visible_text(tree))
        if words:
            found[name] = sorted(set(words))[:12]
    assert not found, found


def test_the_japanese_screens_use_the_seed_wording():
    screens = screens_in_japanese()
    assert "攻城兵器" in visible_text(screens["board"])
    effects = visible_text(screens["help-effects"])
    for eid in EFFECTS:
        assert i18n.JA[f"effect.{eid}"] in effects and i18n.JA[f"effect_text.{eid}"] in effects
    assert "パス" in visible_text(screens["board"])
    assert screens["root"].attrs["lang"] == "ja"


def test_no_catalogue_english_sentence_on_japanese_screens():
    """The literal parts of every English catalogue text (those longer than a word or two)
    never appear on a Japanese screen."""
    text = "\n".join(visible_text(t) for t in screens_in_japanese().values())
    for key, en in i18n.EN.items():
        if en == i18n.JA[key]:
            continue
        for piece in re.split(r"\{[^}]*\}", en):
            piece = piece.strip(" .,:;()—–-")
            if len(piece) >= 12:
                assert piece not in text, (key, piece)


def test_the_english_screens_have_no_japanese_but_the_names():
    """In English the Japanese effect names appear only as the seed's names (lang="ja")."""
    i18n.set_lang("en")
    g = game([20, 16, 2, 4, 12], [1, 3, 5, 7, 9])
    tree = screens.board.board_screen(g.view(0), m.player_names("cpu"), m.Selection())
    text = visible_text(tree)
    for eid in EFFECTS:          # the tooltips name the seed's effect too
        text = text.replace(f"({i18n.JA['effect.' + eid]})", "")
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text)


def _calls(source: str) -> list[tuple[str, list]]:
    """(the called name, its positional args as values: constants, tuples of them, else
    None) of every call in `source` (several modules joined)."""
    import ast

    def value(node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Tuple):
            return tuple(value(e) for e in node.elts)
        return None
    out = []
    for module in re.split(r"(?m)^(?=\"\"\"|from __future__)", source):
        try:
            tree = ast.parse(module)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                out.append((name, [value(a) for a in node.args]))
    return out


def test_every_check_of_the_sealed_audit_has_a_sentence_in_both_languages():
    """The checks both pages of a sealed game list (trifront/net/sealed.py's audit)."""
    from pathlib import Path

    from trifront.ui.online_render import check_name
    text = (Path(__file__).resolve().parents[2] / "trifront" / "net" / "sealed.py").read_text()
    text += (Path(__file__).resolve().parents[2] / "trifront" / "net"
             / "sealed_session.py").read_text()
    names = {args[0] for name, args in _calls(text) if name in ("add", "_Unfair")
             and args and isinstance(args[0], str)}
    names |= {args[1][0] for name, args in _calls(text) if name == "insert" and len(args) > 1
              and isinstance(args[1], tuple) and isinstance(args[1][0], str)}
    assert len(names) >= 10 and "refused" in names, names
    for lang in ("en", "ja"):
        i18n.set_lang(lang)
        missing = sorted(n for n in names if check_name(n) == n)
        assert not missing, (lang, missing)


def test_every_sealed_verdict_code_has_words_in_both_languages():
    """A sealed game's refusals and failed checks are data (code, step, args); every code
    the protocol, the partial game and the told record raise, and every step's part, has its
    words in English and Japanese (the catalogues own them: nothing is read back)."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "trifront"
    text = "".join((root / f).read_text() for f in (
        "net/sealed.py", "net/sealed_session.py", "partial.py", "record.py"))
    where = {"_need": 1, "_hear": 1, "_Unfair": 1, "Inconsistent": 0, "SealedError": 0,
             "fault": 0}
    codes = {args[where[name]] for name, args in _calls(text) if name in where
             and len(args) > where[name] and isinstance(args[where[name]], str)}
    assert len(codes) >= 60 and {"never_drawn", "share", "draw_order", "illegal"} <= codes
    for table in (i18n.EN, i18n.JA):
        missing = sorted(c for c in codes if f"fairwhy.sealed.{c}" not in table)
        assert not missing, missing
        for part in ("move", "reply", "draws", "hello", "deal", "resign", "reveal"):
            assert f"fairwhy.sealed.step.{part}" in table


def test_a_sealed_verdicts_data_is_said_in_each_language():
    """A real refusal and failed checks, their step and the engine's reason included, read
    in Japanese with none of the English words left; a code this page does not know reads
    as the code, and odd args never break the words."""
    from trifront.net.sealed import fault
    failures = [
        fault("claim", {"n": 11, "p": 1, "part": "reply"}, p=1, what="down", told=14, id=9),
        fault("draw_order", {"n": None, "p": 0, "part": "deal"}, p=0),
        fault("illegal", {"n": 2, "p": 0, "part": "move"},
              reason={"rule": "R5.A3", "code": "assault_pass", "args": {}}),
        fault("never_drawn", {"n": 4, "p": 1, "part": "move"}, p=1),
        fault("no_reveal", p=0),
    ]
    assert i18n.fault_english(failures[2]) == ("step 3, player 0's move: the move breaks R5.A3: "
                                               "Assault: you cannot pass on this turn while "
                                               "you can play or discard")
    i18n.set_lang("ja")
    try:
        said = [i18n.engine_text(f) for f in failures]
        assert said[0] == ("手12、プレイヤー1の返答：プレイヤー1は伏せたカードをカード14と"
                           "伝えましたが、実際はカード9でした")
        assert said[1].startswith("プレイヤー0の配り札：プレイヤー0が")
        assert said[2].startswith("手3、プレイヤー0の手：この手は R5.A3 に反します（")
        for text in said:
            assert not re.search(r"\b(player|step|card|the|its|not|move)\b", text), text
        assert i18n.fault_text({"code": "from_a_newer_page", "step": None, "args": {}}) == \
            "from a newer page"
        for odd in ({"code": "claim", "step": {"part": "move", "n": "x", "p": 7},
                     "args": {"p": [1], "told": None}}, {"code": 3}, "text", None):
            assert isinstance(i18n.fault_text(odd), str)
    finally:
        i18n.set_lang("en")


def test_help_on_face_down_names_the_effects_that_still_work_face_down():
    """R4.1: only face-up effects stop working face-down; Ambush (R5.C1, +1 face-down) and the
    either-face on-play effects (R5.D6) still work, so the help may not say 'no effect'."""
    from trifront.effects import ON_PLAY_ANY_FACE
    still_work = ["ambush", *ON_PLAY_ANY_FACE]
    for table in (i18n.EN, i18n.JA):
        text = table["help.facedown_text"]
        for effect in still_work:
            assert table[f"effect.{effect}"].split()[0] in text, (table is i18n.EN, effect)


def test_no_text_is_written_twice_in_a_language():
    """A key given twice in a dict literal keeps the last one silently (a second
    "menu.resume" went unnoticed)."""
    import ast
    from pathlib import Path
    tree = ast.parse(Path(i18n.__file__).read_text(encoding="utf-8"))
    tables = [node for node in ast.walk(tree) if isinstance(node, ast.AnnAssign | ast.Assign)
              and isinstance(node.value, ast.Dict) and len(node.value.keys) > 50]
    assert len(tables) >= 2
    for table in tables:
        keys = [k.value for k in table.value.keys if isinstance(k, ast.Constant)]
        assert len(keys) == len(set(keys)), sorted({k for k in keys if keys.count(k) > 1})


def test_why_a_room_is_busy_is_said_in_the_pages_language():
    """The sessions' busy reasons (sealed_match.py, protocol.OTHER_VERSION, and an older
    version's words for it) read in Japanese; another page's own words are shown as they
    came."""
    from trifront.net import protocol
    i18n.set_lang("ja")
    try:
        assert i18n.busy_text("This room has a game in progress with another player.") == \
            i18n.JA["online.busy_taken"]
        said = i18n.busy_text(protocol.OTHER_VERSION.format(theirs="0.9"))
        assert said == i18n.JA["online.busy_version"].format(theirs="0.9")
        older = ("The other page runs another version of TriFront (trifront-net/7; this one "
                 "trifront-net/8). Both players should reload the page, then join again.")
        assert i18n.busy_text(older) == i18n.JA["online.busy_version"].format(
            theirs="trifront-net/7")
        assert i18n.busy_text("another version (3)") == \
            i18n.JA["online.busy_version"].format(theirs="3")
        assert i18n.busy_text("a game this page cannot accept") == i18n.JA["online.busy_refused"]
        assert i18n.busy_text("go away") == "go away"
        # a version that is a sentence is not put into ours
        lie = "another version (1.0）。相手は不正をしています)"
        assert i18n.busy_text(lie) == lie
    finally:
        i18n.set_lang("en")
