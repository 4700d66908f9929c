"""Card ids, ranks and groups (RULES.md R1), and the 24 effects (R2, R5).

Card ids follow RECORD.md: within each player, rank ``r`` copy ``k`` has id ``2*(r-1)+k``;
cards created during the game (R5.B6) get 26, 27, ... per player.
"""

from __future__ import annotations

from dataclasses import dataclass

from .constants import COPIES, DECK_SIZE

GROUPS = ("A", "B", "C", "D")

#: R1.3 the ranks of each group. Rank 7 belongs to no group.
GROUP_RANKS = {"A": (1, 2, 3), "B": (4, 5, 6), "C": (8, 9, 10), "D": (11, 12, 13)}

_GROUP_OF_RANK = {r: g for g, ranks in GROUP_RANKS.items() for r in ranks}


def rank_of_id(card_id: int) -> int | None:
    """Printed rank of starting card ``card_id`` (0..25), or None for a created card (R1.4)."""
    if 0 <= card_id < DECK_SIZE:
        return card_id // COPIES + 1
    return None


def group_of_rank(rank: int | None) -> str | None:
    """R1.3: the group "A".."D" of a rank, or None for rank 7 and rankless soldiers."""
    return _GROUP_OF_RANK.get(rank) if rank is not None else None


@dataclass(frozen=True)
class EffectInfo:
    """One of the 24 effects: its id (RULES.md R5), group, rule id, and texts."""

    id: str
    group: str
    rule: str
    kind: str  # "on-play", "continuous", "discard", "placement"
    name_en: str
    name_ja: str
    text_en: str
    text_ja: str
    face_up_only: bool = False  # R4.3 cannot be played face-down
    unplayable: bool = False  # R4.3 discard-only: cannot be played at all
    chooses: str | None = None  # R4.4 what its on-play effect chooses, if anything


_EFFECT_LIST = (
    EffectInfo("supply", "A", "R5.A1", "on-play", "Supply Corps", "補給部隊",
               "Face-up: draw 1 card. Only your first face-up Supply each round draws.",
               "表：1ラウンドに1回、山札から1枚引く"),
    EffectInfo("gunners", "A", "R5.A2", "continuous", "Gunners", "鉄砲隊",
               "While a face-up 1, 2 and 3 of Gunners stand together in one lane on your side, "
               "each of those three is power 10.",
               "常時：1・2・3が同じレーンに全て表で揃う間、その3枚は各10扱い（欠ける/裏になると解除）"),
    EffectInfo("assault", "A", "R5.A3", "on-play", "Assault Troops", "突撃部隊",
               "Face-up: on the opponent's next turn they cannot pass while they have a legal play "
               "or discard.",
               "表：相手は次ターン、パス不可（使用可能な手札がない時のみパス可）"),
    EffectInfo("frontline", "A", "R5.A4", "on-play", "Frontline", "前線部隊",
               "Face-up: on the opponent's next turn they cannot play face-down.",
               "表：相手は次ターン、裏で出せない"),
    EffectInfo("archers", "A", "R5.A5", "continuous", "Archers", "弓兵",
               "Face-up: +2 power while the opponent has a face-down card in this lane.",
               "表：同レーンに相手の裏カードが1枚以上あるなら、このカード+2"),
    EffectInfo("priest", "A", "R5.A6", "on-play", "Priest", "祈祷師",
               "Face-up: choose a card in your hand; it becomes a common soldier (no effect, "
               "same power).",
               "表で出したとき、手札のカードを1枚選んで一般兵にする(戦力はそのまま)",
               chooses="own_hand"),
    EffectInfo("recon", "B", "R5.B1", "on-play", "Recon", "偵察部隊",
               "Face-up: choose a face-down opponent card; turn it face-up.",
               "表：相手の裏カード1枚を表にする", chooses="opponent_face_down"),
    EffectInfo("tactician", "B", "R5.B2", "on-play", "Tactician", "軍師",
               "Face-up: move one of your cards on the board (this one too) to another lane, "
               "same face. Siege cards cannot move.",
               "表：このラウンド中に自分が配置したカード1枚を選び、別レーンへ移動",
               chooses="own_board_and_lane"),
    EffectInfo("medic", "B", "R5.B3", "on-play", "Medic", "衛生部隊",
               "Face-up, once per round: put the highest-power card of your discard pile into "
               "your deck and shuffle.",
               "表：1ラウンドに1回、自分の捨て札の中で最大の戦力カード1枚を山札へ戻してシャッフル"),
    EffectInfo("illusionist", "B", "R5.B4", "on-play", "Illusionist", "奇術師",
               "Face-up: every other face-up card in this lane, both sides, turns face-down and "
               "loses every gain and loss.",
               "表：このカードを出したレーンの表カードを全て裏にする（強化/弱体は解除）"),
    EffectInfo("decoy", "B", "R5.B5", "on-play", "Decoy", "陽動部隊",
               "Face-up: choose a face-up opponent card in another lane; move it to their side "
               "of this lane. Siege cards cannot move.",
               "表：相手の表カード1枚を、このカードを出したレーンへ移動させる",
               chooses="opponent_face_up_elsewhere"),
    EffectInfo("lord", "B", "R5.B6", "on-play", "Lord", "領主",
               "Face-up: create a common soldier (power 5) in your deck and shuffle.",
               "表で出したとき、一般兵を1枚デッキに加える"),
    EffectInfo("ambush", "C", "R5.C1", "continuous", "Ambush", "奇襲部隊",
               "+1 power while face-down; −2 while face-up.",
               "裏：このカード+1　表：このカード-2"),
    EffectInfo("mercenary", "C", "R5.C2", "on-play", "Mercenary", "傭兵部隊",
               "Face-up: its power becomes a random number from 1 to 13 while on the board.",
               "表：このカードの戦力がランダムで1〜13になる"),
    EffectInfo("envoy", "C", "R5.C3", "discard", "Envoy", "密使",
               "Cannot be played. Discard it to draw 1 card.",
               "配置不可（捨て専）　捨てる：1枚引く", unplayable=True),
    EffectInfo("cavalry", "C", "R5.C4", "continuous", "Cavalry", "騎将",
               "Face-up: double power while your deck holds 6 cards or fewer; power 1 while it "
               "holds 7 or more.",
               "表：自分の山札が6枚以下ならこのカードは2倍／7枚以上なら1扱い"),
    EffectInfo("engineer", "C", "R5.C5", "on-play", "Engineer", "工兵",
               "Face-up only, into a lane where no one has a card. Choose a card in your hand: "
               "+1 power.",
               "裏不可かつ空レーンのみ配置可　表：手札1枚を+1", face_up_only=True,
               chooses="own_hand"),
    EffectInfo("instructor", "C", "R5.C6", "on-play", "Instructor", "教官",
               "Face-up: every common soldier you own, everywhere, gets +1 power.",
               "表で出したとき、すべての一般兵の戦力を+1"),
    EffectInfo("strategic", "D", "R5.D1", "placement", "Siege Engine", "攻城兵器",
               "Fixed lane: 11 left, 12 center, 13 right (either face).",
               "配置レーン固定：左=11／中央=12／右=13（表裏は選べる）"),
    EffectInfo("general", "D", "R5.D2", "on-play", "General", "大将軍",
               "Face-up only. Your 11-13s are worth +2 everywhere. Playing one ends your round "
               "(you pass).",
               "裏不可　常時：自分の山札/手札の11〜13は+2扱い　表：出したターンは自動パス扱い",
               face_up_only=True),
    EffectInfo("spy", "D", "R5.D3", "on-play", "Spy", "間者",
               "Face-up only. The opponent draws 1; then up to 2 random cards of their hand are "
               "revealed to you.",
               "裏不可　表：相手は1枚引く→相手手札から最大2枚をランダムで公開（以後その2枚は見え続ける）",
               face_up_only=True),
    EffectInfo("black_market", "D", "R5.D4", "discard", "Black Market", "闇商人",
               "Cannot be played. Discard it to draw 2 cards; each gets −5 power (not below 1).",
               "配置不可（捨て専）　捨てる：山札から2枚引く／引いた2枚は戦力-5（最低1）",
               unplayable=True),
    EffectInfo("commander", "D", "R5.D5", "continuous", "Commander", "指揮官",
               "Face-up only. While face-up, this lane is won by number of cards, not power.",
               "裏不可　表：このレーンは合計戦力ではなくカード枚数で勝敗（同数は引分）",
               face_up_only=True),
    EffectInfo("captain", "D", "R5.D6", "on-play", "Captain", "隊長",
               "When played (either face): −1 power if no common soldier is on the board.",
               "出した時、場に一般兵がいなかった場合戦力-1"),
)

#: Every effect by id.
EFFECTS: dict[str, EffectInfo] = {e.id: e for e in _EFFECT_LIST}

#: R2.3 the six effects of each group, in RULES.md order.
GROUP_EFFECTS: dict[str, tuple[str, ...]] = {
    g: tuple(e.id for e in _EFFECT_LIST if e.group == g) for g in GROUPS
}

#: R2.2 the Normal mode effect set.
NORMAL_EFFECTS: dict[str, str] = {"A": "supply", "B": "recon", "C": "ambush", "D": "strategic"}

#: R1.4 the common soldier (一般兵) has this id wherever an effect id is shown.
SOLDIER = "soldier"


def check_effect_set(effects: object) -> dict[str, str]:
    """Validate one player's effect choice: a dict {group: effect id} with one effect per group.

    Returns a plain dict copy. Raises ValueError naming the problem (R2.1, R2.3).
    """
    if not isinstance(effects, dict) or set(effects) != set(GROUPS):
        raise ValueError("effects must name one effect for each of the groups A, B, C, D (R2.1)")
    for group, effect in effects.items():
        if effect not in GROUP_EFFECTS[group]:
            raise ValueError(f"{effect!r} is not an effect of group {group} (R2.3)")
    return {g: effects[g] for g in GROUPS}
