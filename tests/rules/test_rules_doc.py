"""docs/RULES.md is the rules' source of truth in the repository: every rule id the engine,
the page (its help, refusals and log, trifront/ui/i18n.py) and the tests cite is defined
there, every rule there is cited by the code, and what the help and the effect cards say
(each effect's rule id, the Normal set, the tunable numbers) agrees with it."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import REPO_ROOT, SHARED_DIR
from tests.rules.rule_ids import CITED, cited_in, rule_texts, rules_ids
from trifront import constants
from trifront.cards import EFFECTS, GROUP_EFFECTS, GROUP_RANKS, NORMAL_EFFECTS
from trifront.ui import i18n

CODE = sorted((REPO_ROOT / "trifront").rglob("*.py"))
TESTS = sorted(p for p in (REPO_ROOT / "tests").rglob("*.py") if "vendor" not in p.parts)


def test_the_rules_define_every_section_and_rule():
    ids = rules_ids()
    assert {f"R{n}" for n in range(1, 8)} <= ids
    assert {f"R5.{g}{n}" for g in "ABCD" for n in range(1, 7)} <= ids
    assert len(ids) == 58, sorted(ids)  # 7 sections, 51 rules


def test_every_rule_the_code_and_tests_cite_is_in_the_rules():
    cited = cited_in(CODE + TESTS + [REPO_ROOT / "README.md"]
                     + sorted((REPO_ROOT / "docs").glob("*.md")))
    missing = {rule: sorted(files) for rule, files in cited.items() if rule not in rules_ids()}
    assert not missing, f"cited but not in docs/RULES.md: {missing}"


def test_every_rule_is_cited_by_the_code():
    # the engine, the CPU or the page: a rule no code names is a rule nothing implements
    uncited = rules_ids() - set(cited_in(CODE))
    assert not uncited, f"docs/RULES.md rules that trifront/ never cites: {sorted(uncited)}"


def test_every_rule_has_a_test():
    untested = {r for r in rules_ids() if "." in r} - set(cited_in(TESTS))
    assert not untested, f"rules no test under tests/ cites: {sorted(untested)}"


def test_the_help_cites_only_rules_that_exist_in_both_languages():
    for lang in ("en", "ja"):
        texts = {k: v for k, v in i18n.TABLES[lang].items() if k.startswith("help.")}
        cited = {r for v in texts.values() for r in CITED.findall(v)}
        assert cited and cited <= rules_ids(), (lang, sorted(cited - rules_ids()))


@pytest.mark.parametrize("effect", sorted(EFFECTS))
def test_each_effect_card_cites_its_rule(effect):
    """The help's effect list and the card texts name an effect's rule id (cards.py): that
    rule is the one docs/RULES.md gives the effect, in its group's ranks."""
    info = EFFECTS[effect]
    text = rule_texts()[info.rule]
    assert f"`{effect}`" in text.split(":")[0], (info.rule, text)
    name_ja = i18n.effect_name(effect, "ja")
    assert name_ja in text, (info.rule, name_ja)
    assert info.rule.startswith(f"R5.{info.group}") and effect in GROUP_EFFECTS[info.group]
    rules = (REPO_ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    heading = re.search(rf"### Group {info.group} \(ranks (\d+)–(\d+)\)", rules)
    assert heading and (int(heading[1]), int(heading[2])) == (GROUP_RANKS[info.group][0],
                                                               GROUP_RANKS[info.group][-1])


def test_the_normal_set_and_the_tunable_numbers_agree_with_the_rules():
    rules = rule_texts()
    assert all(f"{g} `{e}`" in rules["R2.2"] for g, e in NORMAL_EFFECTS.items())
    assert f"draws {constants.FIRST_ROUND_DRAW} cards *[tunable]*" in rules["R3.2"]
    assert f"each draws {constants.LATER_ROUND_DRAW} *[tunable]*" in rules["R3.2"]
    assert f"power **{constants.CREATED_SOLDIER_POWER}**" in rules["R1.4"]
    assert f"{constants.TARGET_SCORE} points or more *[tunable]*" in rules["R6.4"]
    assert f"{constants.COPIES * constants.MAX_RANK} cards" in rules["R1.2"]
    # and the help says the same numbers
    for key, numbers in (("help.goal_text", [constants.TARGET_SCORE]),
                         ("help.round_text", [constants.FIRST_ROUND_DRAW,
                                              constants.LATER_ROUND_DRAW]),
                         ("help.deck_text", [constants.DECK_SIZE])):
        for lang in ("en", "ja"):
            found = [int(n) for n in re.findall(r"\d+", i18n.TABLES[lang][key])]
            assert all(n in found for n in numbers), (lang, key, numbers)


def test_the_rules_keep_the_shared_rule_ids():
    """The rules were written for the repository in its own words from the team's shared
    RULES.md; both define the same rule ids (checked where the shared folder is present)."""
    shared = SHARED_DIR / "RULES.md"
    if not shared.is_file():
        pytest.skip(f"no shared RULES.md at {shared}")
    theirs = set(re.findall(r"^(?:#+ |- )(R[1-7](?:\.[A-D]?[0-9]+)?)\b",
                            shared.read_text(encoding="utf-8"), re.M))
    assert theirs == rules_ids()


def test_the_record_example_in_docs_replays():
    """docs/RECORD.md's example record is one the engine reads and replays."""
    from trifront.record import check_record, replay

    text = (REPO_ROOT / "docs" / "RECORD.md").read_text(encoding="utf-8")
    example = re.search(r"```json\n(\{\n  \"format\".*?)\n```", text, re.S)
    state = replay(check_record(json.loads(example[1])))
    assert state.round == 1 and len(state.history) == 1
