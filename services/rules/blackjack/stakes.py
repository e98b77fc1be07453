"""Stakes before the deal: table limits, Perfect Pairs limits, boxes per player, CL formula.

An over-maximum stake plays the maximum and the excess goes back to the player (BO seed 002
§1.2.1.1, CL seed 004 RG §4.2) or is rejected (LIVE seed 003 BJ §2.1.4): core.limits decides.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from services.rules.blackjack.refs import ref
from services.rules.blackjack.request import BoxInput, RoundInput
from services.rules.blackjack.rules import BjRules
from services.rules.core.errors import RulesError
from services.rules.core.limits import LimitOutcome, TableLimits, apply_limits

CL_MULTIPLES = (1, 3, 7)   # seed 004 III §1.4.2: «1 apuesta | 3 apuestas | 7 apuestas»


@dataclass(frozen=True)
class BoxStakes:
    main: tuple[LimitOutcome, ...]        # one per round
    perfect_pairs: LimitOutcome | None

    @property
    def playing(self) -> tuple[int, ...]:
        return tuple(m.playing_stake for m in self.main)


def box_stakes(box: BoxInput, rnd: RoundInput, rules: BjRules) -> BoxStakes:
    main = tuple(apply_limits(s, rnd.limits, rules.profile, _stake_field(box, i, rules),
                              "blackjack")
                 for i, s in enumerate(box.stakes))
    pp = None
    if box.perfect_pairs:
        if not rules.perfect_pairs:
            raise RulesError(f"{box.field}.perfect_pairs", "this round is not the Perfect Pairs "
                             "variant (set \"variant\": \"perfect_pairs\"; the layout must have "
                             "the Perfect Pairs boxes, seed 002 §2.1.4.1)")
        pp = apply_limits(box.perfect_pairs, _pp_limits(box, rnd, rules), rules.profile,
                          f"{box.field}.perfect_pairs", "blackjack")
    return BoxStakes(main, pp)


def _stake_field(box: BoxInput, i: int, rules: BjRules) -> str:
    return f"{box.field}.bets[{i}]" if rules.challenge21 else f"{box.field}.bet"


def _pp_limits(box: BoxInput, rnd: RoundInput, rules: BjRules) -> TableLimits | None:
    if rnd.limits is None:
        return None
    mode = rules.lazy("bj_pp_limits", f"{box.field}.perfect_pairs")
    if mode == "none":
        return None
    basis = rnd.limits.minimum if mode == "as_printed" else box.stakes[0]
    low = -(-rnd.limits.minimum // 10)          # 10 % of the table minimum, rounded up
    high = basis * 8 // 10                      # 80 %, rounded down: never above the limit
    if high <= 0 or low > high:
        raise RulesError(f"{box.field}.perfect_pairs", f"no Perfect Pairs stake fits: minimum "
                         f"{low}, maximum {high} ({ref(rules.profile.id, 'pp_limits')})")
    return TableLimits(low, high)


def check_players(rnd: RoundInput, rules: BjRules) -> None:
    """Boxes per player (A-5, C-6) and, for CL, consecutive boxes and the stake formula."""
    by_player: dict[str, list[BoxInput]] = defaultdict(list)
    for box in rnd.boxes:
        by_player[box.player].append(box)
    for player, boxes in by_player.items():
        if len(boxes) > rules.max_boxes:
            raise RulesError(f"{boxes[-1].field}.player", f"player {player!r} plays "
                             f"{len(boxes)} boxes; at most {rules.max_boxes} per round "
                             f"({ref(rules.profile.id, 'multibox')})")
        if len(boxes) > 1 and rules.multibox != "off":
            _cl_formula(player, boxes, rnd, rules)


def _cl_formula(player: str, boxes: list[BoxInput], rnd: RoundInput, rules: BjRules) -> None:
    cite = ref(rules.profile.id, "multibox")
    seats = [b.seat for b in boxes]
    if seats != list(range(seats[0], seats[0] + len(seats))):
        raise RulesError(f"{boxes[-1].field}.seat", f"player {player!r} must play consecutive "
                         f"boxes «manteniendo el orden correlativo» ({cite}); seats {seats}")
    if rnd.limits is None:
        raise RulesError("limits", f"table limits are needed to check the multi-box stake "
                         f"formula for player {player!r} ({cite})")
    minimum, maximum = rnd.limits.minimum, rnd.limits.maximum
    need = [minimum * m for m in CL_MULTIPLES] + [maximum]
    if rules.multibox == "total":
        staked = sum(b.stakes[0] for b in boxes)
        if staked < need[len(boxes) - 1]:
            raise RulesError(f"{boxes[-1].field}.bet", f"player {player!r} stakes {staked} on "
                             f"{len(boxes)} boxes; the formula asks at least "
                             f"{need[len(boxes) - 1]} in total ({cite}, reading 'total')")
        return
    for k, box in enumerate(boxes):
        if box.stakes[0] < need[k]:
            raise RulesError(f"{box.field}.bet", f"box {k + 1} of player {player!r} needs at "
                             f"least {need[k]} ({cite}, reading 'per_box')")
