"""Whether a player's decision is allowed, and why not: one place for every check.

`why_not` returns the reason a decision is refused (None when allowed); `legal` lists the
allowed decisions for a hand, so a hand whose only choice is to stand finishes by itself
(21, a bust, a doubled hand, a split ace with its one card).
"""
from __future__ import annotations

from services.rules.blackjack.hand import ACE, TEN, same_value, total, value
from services.rules.blackjack.refs import ref
from services.rules.blackjack.request import ACTIONS, Action, RoundInput
from services.rules.blackjack.rules import BjRules
from services.rules.blackjack.settle import HALF
from services.rules.blackjack.state import BoxPlay, PlayerHand
from services.rules.core.cards import Card
from services.rules.core.errors import RulesError
from services.rules.core.money import apply_fraction

_DOUBLE_TEXT = {
    "9_11": "9, 10 or 11 with the first two cards",
    "9_11_soft": "9, 10 or 11 with the first two cards, soft combinations included (A-9)",
    "any": "any first two cards, extra stake not above the original",
}


def legal(bp: BoxPlay, hand: PlayerHand, up: Card, rules: BjRules) -> tuple[str, ...]:
    return tuple(k for k in ACTIONS if why_not(Action(k, ""), bp, hand, up, rules) is None)


def why_not(action: Action, bp: BoxPlay, hand: PlayerHand, up: Card,
            rules: BjRules) -> str | None:
    kind, pid = action.kind, rules.profile.id
    if kind == "stand":
        return None
    if kind == "surrender":
        return _surrender(hand, up, rules)
    if hand.doubled:
        return "a doubled hand receives one card only"
    if hand.split_aces and rules.split_aces_one_card and kind != "split":
        return f"split aces receive one card each ({ref(pid, 'split')})"
    if total(hand.cards).best >= 21:
        return f"no card may be asked on 21 or more ({ref(pid, 'hit')})"
    if kind in ("hit", "refuse"):
        return None
    if len(hand.cards) != 2:
        return f"{kind} is only possible on the first two cards of a hand"
    if kind == "double":
        return _double(action, bp, hand, rules)
    return _split(bp, hand, rules)


def _double(action: Action, bp: BoxPlay, hand: PlayerHand, rules: BjRules) -> str | None:
    cite = ref(rules.profile.id, "double")
    if hand.from_split and not rules.double_after_split:
        return f"no doubling after a split ({cite})"
    t = total(hand.cards)
    if rules.double == "9_11" and not 9 <= t.best <= 11:
        return f"doubling needs {_DOUBLE_TEXT['9_11']} ({cite})"
    if rules.double == "9_11_soft" and not (9 <= t.best <= 11 or 9 <= t.hard <= 11):
        return f"doubling needs {_DOUBLE_TEXT['9_11_soft']} ({cite})"
    original = bp.stakes.playing[0]
    if action.amount is None or action.amount == original:
        return None
    if rules.double != "any" or rules.challenge21:
        return f"the double must be the same amount as the original bet ({original}) ({cite})"
    if action.amount > original:
        return (f"the extra stake {action.amount} may not exceed the original bet {original} "
                f"({cite})")
    return None


def _split(bp: BoxPlay, hand: PlayerHand, rules: BjRules) -> str | None:
    cite = ref(rules.profile.id, "split")
    a, b = hand.cards
    if not same_value(a, b):
        return f"splitting needs two cards of the same value ({cite})"
    if bp.splits >= rules.max_splits:
        return f"at most {rules.max_splits} split(s) per box ({cite})"
    if hand.split_aces and a.rank == ACE and not rules.resplit_aces:
        return f"split aces may not be split again ({cite})"
    return None


def _surrender(hand: PlayerHand, up: Card, rules: BjRules) -> str | None:
    pid = rules.profile.id
    if rules.surrender == "none":
        return f"{pid} offers no surrender (seed 003 BJ lists none)"
    if hand.from_split or hand.acted or len(hand.cards) != 2:
        return "surrender is only possible on the first two cards, before any other decision"
    cite = ref(pid, "surrender")
    if rules.surrender == "not_vs_ace" and up.rank == ACE:
        return f"«El retiro no procede cuando la primera carta ... es un as» ({cite})"
    if rules.surrender == "vs_ace_only" and up.rank != ACE:
        return f"surrender only against a dealer ace (literal reading, {cite})"
    return None


def why_allowed(kind: str, rules: BjRules) -> str:
    pid = rules.profile.id
    texts = {
        "stand": f"a player may stand at any time ({ref(pid, 'hit')})",
        "hit": f"cards one by one below 21 ({ref(pid, 'hit')})",
        "refuse": f"a disputed exposed card refused by the player is burned "
                  f"({ref(pid, 'irregular')})",
        "double": f"{_DOUBLE_TEXT[rules.double]}, one more card ({ref(pid, 'double')})",
        "split": f"two cards of the same value, up to {rules.max_splits} split(s) "
                 f"({ref(pid, 'split')})",
        "surrender": f"half the bet returned ({ref(pid, 'surrender')})",
    }
    return texts[kind]


def check_offers(bp: BoxPlay, up: Card, rnd: RoundInput, rules: BjRules) -> None:
    """Insurance, even money and the CL insurance against a 10, against the dealer's card."""
    box, pid = bp.box, rules.profile.id
    for r, amount in enumerate(box.insurance):
        if amount:
            field = f"{box.field}.insurance" + (f"[{r}]" if rules.challenge21 else "")
            _insurance(amount, bp.stakes.playing[r], up, field, rules)
    if box.even_money:
        if not rules.even_money:
            raise RulesError(f"{box.field}.even_money", f"{pid} offers no even money")
        if not (bp.hands[0].natural and up.rank == ACE):
            raise RulesError(f"{box.field}.even_money", "even money is offered only to a "
                             f"blackjack against a dealer ace ({ref(pid, 'even_money')})")
        if any(box.insurance):
            raise RulesError(f"{box.field}.insurance", "even money and insurance exclude each "
                             f"other ({ref(pid, 'even_money')})")
    if box.insurance_ten:
        _insurance_ten(bp, up, rnd, rules)


def _insurance(amount: int, stake: int, up: Card, field: str, rules: BjRules) -> None:
    cite = ref(rules.profile.id, "insurance")
    if up.rank != ACE:
        raise RulesError(field, f"insurance is offered only when the dealer's first card is "
                         f"an ace; it is {up} ({cite})")
    if rules.insurance_exact:
        half = apply_fraction(stake, HALF, rules.rounding)
        if amount != half:
            raise RulesError(field, f"insurance must be exactly half the bet {stake}: {half} "
                             f"({cite})")
    elif 2 * amount > stake:
        raise RulesError(field, f"insurance {amount} exceeds half the bet {stake} ({cite})")


def _insurance_ten(bp: BoxPlay, up: Card, rnd: RoundInput, rules: BjRules) -> None:
    field = f"{bp.box.field}.insurance_ten"
    cite = ref(rules.profile.id, "promo_insurance_ten")
    if not rules.promotions or rules.challenge21:
        raise RulesError(field, f"insurance against a 10 is a CL promotion ({cite}); "
                         "promotions are off for this round")
    if value(up) != TEN:
        raise RulesError(field, f"offered only when the dealer's first card is a 10 or a "
                         f"figure; it is {up} ({cite})")
    allowed = {apply_fraction(bp.stakes.playing[0], HALF, rules.rounding)}
    if rnd.limits is not None:
        allowed.add(apply_fraction(rnd.limits.minimum, HALF, rules.rounding))
    if bp.box.insurance_ten not in allowed:
        raise RulesError(field, f"must be 50 % of the table minimum or of the bet: one of "
                         f"{sorted(allowed)} ({cite})")
