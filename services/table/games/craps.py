"""The craps and mini craps table adapter (BO seed 000 §3.1, CL-ARICA seed 004 IV §1).

One roll is one round of the table session: OpenRound, bets and changes, «no más apuestas»
(«ya no va más»), RecordRoll → DiceRolled, the bets that roll decides (BetSettled), RoundSettled.
Bets stay on the layout across rolls until decided — pass / don't pass, come / don't come
travelling to their number, odds, place to win and to lose, big 6/8, hardways (CL's off on the
come-out unless called on, `working`) — and one-roll bets are decided by the next roll. The
point (the ON/OFF marker) and the layout are the adapter's `CrapsPlay`, folded from the
table's events, so the state is the log's. Every decision, withdrawal and change goes through
the rules engine (services/rules/craps: `CrapsTable.place / change / roll`), which names the
rule behind each payout; nothing is paid here.

Mini craps is the same game at a smaller table with one croupier (seed 000 §3.1.3, §3.1.4.2):
every bet, pay and rule applies to both; the variant is the table's game.

The shooter (seed 000 §3.1.5, seed 004 IV §1.5; who is next: games/shooter.py):
- the dice go first to the lowest occupied seat (seat 1 is the one at the croupiers' left);
- after a seven-out they pass to the next seated player in the table's direction, switch
  `craps_shooter_direction` (domain.md A-28: «siguiendo el sentido de las agujas del reloj»
  against «los dados deben ser entregados al jugador de su derecha»); a player who declines
  passes them on (PassDice);
- the shooter must bet the pass line or don't pass before a come-out roll: «no más
  apuestas» is refused until he does (seed 000 §3.1.5 «Apuestas», §3.1.7.1 irregular plays);
- a shooter who leaves with a point on loses his pass line bet (seed 000 §3.1.7.1, seed 004
  IV §1.7), and its odds come back with it.

Not offered at a live table: buy and lay (both seeds give no commission rate, domain.md §0.4;
the engine's upfront commission is no bet of the table's).

A CCTV correction of a roll (the surveillance room's CORRECTED with the true dice, "3-4";
payout hold, seed 002 §1.3, seed 004 RG §6) re-settles it (games/roll_correction.py): the play
keeps the layout each of the last rolls was thrown in (`CrapsPlay.thrown`), and the engine
re-decides that roll with the true dice in that state. Every bet both rolls decide (every
one-roll bet, a line or place bet both win or lose) is re-settled exactly; a bet only one of
them decides, or that they move to different numbers, is listed for the pit manager, since
later rolls were played on the state the wrong call left (the point, the shooter).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, cast

from contracts.envelope import Command, Event
from contracts.money import Money
from contracts.table import (
    BetChanged,
    BetChangedData,
    BetLimits,
    BetOutcome,
    BetPlaced,
    BetPlacedData,
    BetSettled,
    BetSettledData,
    BetSpec,
    ChangeBet,
    DiceRolled,
    DiceRolledData,
    PointNumber,
    RecordRoll,
    RemoveBet,
    ShooterChanged,
    ShooterDirection,
    ShooterReason,
    TableOpenedData,
)
from services.rules.core import RulesError, get_profile
from services.rules.core.limits import TableLimits, apply_limits
from services.rules.core.profiles import Profile
from services.rules.core.results import BetResult
from services.rules.craps.bets import FIXED_NUMBER, ODDS, parse_bet
from services.rules.craps.dice import Roll
from services.rules.craps.paytable import PAY_SECTION, RULE_SECTION, PayTable
from services.rules.craps.rules import Verdict
from services.rules.craps.switches import SHOOTER_DIRECTION
from services.rules.craps.table import CrapsTable
from services.table.games import (
    Correction,
    Emit,
    GameBase,
    Problem,
    Refusal,
    SessionView,
    register,
    roll_correction,
    shooter,
)
from services.table.games.layout import KEEP_THROWN, LayoutBet, Thrown
from services.table.policy import LIMIT_RULE
from services.table.rounds import Round, RoundState

# Games at a live table: buy and lay need a commission rate no seed gives (domain.md §0.4).
LIVE_KINDS = ("pass_line", "dont_pass", "come", "dont_come", "odds", "dont_odds", "field",
              "big_6", "big_8", "any_seven", "eleven", "under_7", "over_7", "hardway", "horn",
              "any_craps", "craps_2", "craps_3", "craps_12", "place", "place_to_lose")
_CITED = re.compile(r"seed \d{3} (?:IV )?§[\d.]+")
# Two dice as the table records them ("3+4") or as the cameras and surveillance write them
# ("3-4"); anything else (a pocket, 00, a die of 7) is no roll.
_DICE = re.compile(r"^([1-6])[-+]([1-6])$")


@dataclass
class CrapsPlay:
    """What a craps table carries across rolls: the point, the layout, the shooter."""

    point: int | None = None
    bets: dict[str, LayoutBet] = field(default_factory=dict)  # in the order placed
    shooter: int | None = None   # the seat holding the dice
    rolls: int = 0
    # round id -> the layout its roll was thrown in (the last KEEP_THROWN), for corrections
    thrown: dict[str, Thrown] = field(default_factory=dict)


def _number(spec: BetSpec) -> int | None:
    if spec.kind in FIXED_NUMBER:
        return FIXED_NUMBER[spec.kind]
    return int(spec.numbers[0]) if spec.numbers else None


class Craps(GameBase):
    bet_kinds: tuple[str, ...] = LIVE_KINDS
    result_command = "RecordRoll"
    result_event: type[Event] = DiceRolled
    keeps_layout = True
    seat_release_rule: str | None = None

    def __init__(self, game: str) -> None:
        self.game = game

    # ----- the table ------------------------------------------------------------------------
    def profile(self, config: TableOpenedData) -> Profile:
        return get_profile(config.profile, config.switches)

    def config_problem(self, config: TableOpenedData) -> Problem | None:
        if config.profile not in PAY_SECTION:
            return "payload.profile", (f"profile {config.profile} does not define craps; "
                                       f"craps profiles: {', '.join(PAY_SECTION)}")
        if config.variant not in (None, self.game):
            return "payload.variant", f"a {self.game} table's variant is {self.game} or none"
        try:
            self.profile(config).switch(SHOOTER_DIRECTION.name)
        except RulesError as err:
            return f"payload.{err.field}", err.reason
        unknown = sorted(set(config.bet_limits) - set(self.bet_kinds))
        if unknown:
            return (f"payload.bet_limits.{unknown[0]}",
                    f"{', '.join(unknown)}: not a bet of a live craps table; kinds: "
                    f"{', '.join(self.bet_kinds)}")
        return None

    def limits_for(self, config: TableOpenedData, kind: str) -> BetLimits:
        """A kind's own limits (craps signs give the odds, place and one-roll bets their own;
        services/rules/craps/limits.py), else the table's. Neither seed caps odds by the line
        bet: an odds maximum is `bet_limits.odds`."""
        return config.limits_of(kind)

    def limit_parts(self, config: TableOpenedData, bet: BetSpec) -> list[tuple[str, int]]:
        return [(bet.kind, bet.stake.amount)]

    def bet_problem(self, config: TableOpenedData, bet: BetSpec) -> Problem | None:
        """The bet as the engine parses it: the kind, its number, `on` for odds only, `working`
        for hardways only; a craps bet has at most one number."""
        if bet.zero_option is not None:
            return "payload.bet.zero_option", "a craps bet has no zero option"
        if len(bet.numbers) > 1:
            return "payload.bet.numbers", "a craps bet is on one number at most"
        try:
            parse_bet(_raw(bet, "b"), "b")
        except RulesError as err:
            return _field(err.field), err.reason
        if bet.kind in ODDS:
            return None  # their number is the line bet's: `admit` asks the engine
        try:  # a bet the profile does not offer (CL prints no pay for craps 2/3/12)
            PayTable(self.profile(config)).pay(bet.kind, _number(bet), 2)
        except RulesError as err:
            return "payload.bet.kind", err.reason
        return None

    # ----- the play -----------------------------------------------------------------------
    def new_play(self, config: TableOpenedData) -> CrapsPlay:
        return CrapsPlay()

    def evolve(self, play: CrapsPlay, event: Event) -> None:
        if isinstance(event, BetPlaced):
            p = event.payload
            number = _number(p.bet)
            if p.bet.on is not None and p.bet.on in play.bets:
                number = play.bets[p.bet.on].number
            play.bets[p.bet_id] = LayoutBet(p, p.bet.stake.amount, number)
        elif isinstance(event, BetSettled):
            play.bets.pop(event.payload.bet_id, None)
        elif isinstance(event, BetChanged):
            play.bets[event.payload.bet_id].amount = event.payload.amount
        elif isinstance(event, DiceRolled):
            _keep_thrown(play, event.payload)
            play.point, play.rolls = event.payload.point_after, play.rolls + 1
            for bet_id, number in event.payload.travelled.items():
                play.bets[bet_id].number = number
        elif isinstance(event, ShooterChanged):
            play.shooter = event.payload.seat

    def play_to_json(self, play: CrapsPlay) -> dict[str, Any]:
        return {"point": play.point, "shooter": play.shooter, "rolls": play.rolls,
                "bets": [b.to_json() for b in play.bets.values()],
                "thrown": {r: t.to_json() for r, t in play.thrown.items()}}

    def play_from_json(self, config: TableOpenedData, data: Any) -> CrapsPlay:
        bets = [LayoutBet.from_json(b) for b in data["bets"]]
        thrown = {r: Thrown.from_json(t) for r, t in data["thrown"].items()}
        return CrapsPlay(data["point"], {b.placed.bet_id: b for b in bets}, data["shooter"],
                         data["rolls"], thrown)

    def holds_bet(self, play: CrapsPlay, bet_id: str) -> bool:
        return bet_id in play.bets

    def _engine(self, view: SessionView) -> CrapsTable:
        """The engine's table now. Limits were applied when each bet was placed or changed
        (the maximum plays, the excess went back then), so the engine is given none."""
        play: CrapsPlay = view.play
        return CrapsTable(PayTable(self.profile(_cfg(view))), play.point,
                          tuple(b.engine() for b in play.bets.values()))

    def admit(self, view: SessionView, bet: BetSpec, bet_id: str) -> Problem | None:
        """The engine's verdict on the bet at this moment: a pass line only on the come-out,
        come bets only with the point on (A-31), odds on a line bet with its point."""
        try:
            self._engine(view).place(parse_bet(_raw(bet, bet_id), bet_id), view.play.rolls)
        except RulesError as err:
            return _field(err.field), err.reason
        return None

    # ----- the roll -----------------------------------------------------------------------
    def record(self, view: SessionView, command: Command) -> tuple[Emit, Refusal | None]:
        assert isinstance(command, RecordRoll), "the session checked result_command"
        cfg, play, rnd = _cfg(view), cast(CrapsPlay, view.play), view.round
        assert rnd is not None
        p = command.payload
        if p.round_id != rnd.round_id:
            return [], ("REFUSED", "payload.round_id", f"{p.round_id} is not the round in play "
                        f"({rnd.round_id}): a round has one roll", "")
        _, report = self._engine(view).roll(Roll(*p.dice), play.rolls)
        settled = [self._settled(cfg, rnd.round_id, play, r) for r in report.results]
        rolled = DiceRolledData(
            round_id=rnd.round_id, dice=p.dice, result=f"{p.dice[0]}+{p.dice[1]}",
            point_before=cast(PointNumber | None, report.point_before),
            point_after=cast(PointNumber | None, report.point_after),
            seven_out=report.seven_out, shooter_seat=play.shooter,
            travelled={b.id: cast(PointNumber, d.number) for b, d in report.decisions
                       if d.verdict is Verdict.TRAVEL},
            device_id=p.device_id, roll_id=p.roll_id)
        emit: Emit = [(DiceRolled, rolled), *((BetSettled, s) for s in settled)]
        if report.seven_out:
            emit += self._next_shooter(view, "seven_out")
        return emit, None

    def _settled(self, cfg: TableOpenedData, round_id: str, play: CrapsPlay, r: BetResult,
                 note: str = "") -> BetSettledData:
        placed = play.bets[r.extra["id"]].placed
        return BetSettledData(
            round_id=round_id, bet_id=placed.bet_id, seat=placed.seat,
            player_id=placed.player_id, kind=placed.bet.kind, stake=_money(cfg, r.stake),
            paid=_money(cfg, r.paid), net=r.net, outcome=cast(BetOutcome, r.outcome.value),
            rule=str(r.rule), rule_note=note or r.rule.note or r.detail)

    # ----- withdrawing, reducing, increasing (domain.md §4.6) -----------------------------
    def change_bet(self, view: SessionView, command: Command) -> tuple[Emit, Refusal | None]:
        cfg, play, rnd = _cfg(view), cast(CrapsPlay, view.play), view.round
        assert rnd is not None and isinstance(command, (ChangeBet, RemoveBet))
        bet_id = command.payload.bet_id
        amount = command.payload.amount if isinstance(command, ChangeBet) else 0
        where = "payload.amount" if isinstance(command, ChangeBet) else "payload.bet_id"
        lb = play.bets.get(bet_id)
        if lb is None:
            return [], ("NO_SUCH_BET", "payload.bet_id", f"no bet {bet_id} is on the layout", "")
        returned = None
        if amount > 0 and amount != lb.amount:
            amount, returned, refusal = self._within_limits(cfg, lb, amount)
            if refusal is not None:
                return [], refusal
        try:
            _, back = self._engine(view).change(bet_id, amount, where, play.rolls)
        except RulesError as err:
            return [], ("BET_LOCKED", where, err.reason, _cited(err.reason, cfg))
        if amount == 0:  # the bet and the odds backing it come back whole
            return [(BetSettled, self._settled(cfg, rnd.round_id, play, r)) for r in back], None
        if amount == lb.amount:
            return [], None
        if back:
            returned = _money(cfg, back[0].paid)
        return [(BetChanged, BetChangedData(
            round_id=rnd.round_id, bet_id=bet_id, seat=lb.placed.seat,
            player_id=lb.placed.player_id, kind=lb.placed.bet.kind, amount_before=lb.amount,
            amount=amount, returned=returned, rule=str(RULE_SECTION[cfg.profile])))], None

    def _within_limits(self, cfg: TableOpenedData, lb: LayoutBet, amount: int
                       ) -> tuple[int, Money | None, Refusal | None]:
        """The new amount as it plays within the kind's limits: under the minimum refused;
        over the maximum the maximum plays and the excess goes back, or refused (over_max)."""
        kind = lb.placed.bet.kind
        lim = self.limits_for(cfg, kind)
        text = f"{kind} limits {lim.min_bet}–{lim.max_bet} ({cfg.currency} minor units)"
        if amount < lim.min_bet:
            return amount, None, ("REFUSED", "payload.amount", f"{amount} is under the minimum "
                                  f"{lim.min_bet}: {text}", LIMIT_RULE[cfg.profile])
        try:
            out = apply_limits(amount, TableLimits(lim.min_bet, lim.max_bet),
                               self.profile(cfg), "payload.amount", game=cfg.game)
        except RulesError:
            return amount, None, ("REFUSED", "payload.amount", f"{amount} is over the maximum "
                                  f"{lim.max_bet}: {text}", LIMIT_RULE[cfg.profile])
        return out.playing_stake, _money(cfg, out.excess) if out.excess else None, None

    # ----- the shooter ------------------------------------------------------------------------
    def round_opening(self, view: SessionView) -> Emit:
        """The dice go to a shooter when nobody holds them (the first roll of the session, or
        after the shooter's seat was left)."""
        play = cast(CrapsPlay, view.play)
        if play.shooter is not None and play.shooter in view.seated or not view.seated:
            return []
        return self._next_shooter(view, "first")

    def player_seated(self, view: SessionView) -> Emit:
        """The first player at a table where nobody holds the dice gets them at once, so a
        round already open can be thrown."""
        return [] if view.play.shooter is not None else self._next_shooter(view, "first")

    def close_bets_problem(self, view: SessionView) -> Refusal | None:
        cfg, play = _cfg(view), cast(CrapsPlay, view.play)
        if cfg.seating != "enforced":
            return None
        if play.shooter is None:
            return ("NO_SHOOTER", "command_type", "nobody holds the dice: seat a player first "
                    "(«se requiere la participación de un jugador como mínimo»)",
                    shooter.FIRST_SHOOTER_RULE[cfg.profile].split(" «")[0])
        if play.point is None and not any(
                b.placed.seat == play.shooter and b.placed.bet.kind in ("pass_line", "dont_pass")
                for b in play.bets.values()):
            return ("NO_LINE_BET", "command_type", f"the shooter at seat {play.shooter} has no "
                    f"pass line or don't pass bet: it is required before the come-out roll",
                    shooter.LINE_BET_RULE[cfg.profile])
        return None

    def seat_leaving(self, view: SessionView, seat: int) -> tuple[Emit, Refusal | None]:
        """A shooter who leaves with a point on loses his pass line bet (its odds come back
        with it, as a line bet's odds do); the dice pass on."""
        cfg, play, rnd = _cfg(view), cast(CrapsPlay, view.play), view.round
        if seat != play.shooter:
            return [], None
        lost = [b for b in play.bets.values() if b.placed.seat == seat
                and b.placed.bet.kind == "pass_line" and b.number is not None]
        if lost and (rnd is None or rnd.state is not RoundState.BETTING):
            return [], ("REFUSED", "command_type", "the shooter leaves with the point on between "
                        "the bets and the roll: open the next round first, his pass line bet "
                        "is lost in it", shooter.LEAVES_RULE[cfg.profile])
        emit: Emit = []
        for b in lost:
            assert rnd is not None
            emit.append((BetSettled, BetSettledData(
                round_id=rnd.round_id, bet_id=b.placed.bet_id, seat=seat,
                player_id=b.placed.player_id, kind="pass_line", stake=_money(cfg, b.amount),
                paid=_money(cfg, 0), net=-b.amount, outcome="lose",
                rule=shooter.LEAVES_RULE[cfg.profile], rule_note=shooter.LEAVES_NOTE)))
            for odds in (o for o in play.bets.values() if o.placed.bet.on == b.placed.bet_id):
                emit.append((BetSettled, BetSettledData(
                    round_id=rnd.round_id, bet_id=odds.placed.bet_id, seat=odds.placed.seat,
                    player_id=odds.placed.player_id, kind=odds.placed.bet.kind,
                    stake=_money(cfg, odds.amount), paid=_money(cfg, odds.amount), net=0,
                    outcome="void", rule=str(RULE_SECTION[cfg.profile]),
                    rule_note=f"odds returned with {b.placed.bet_id}, the pass line bet the "
                              f"shooter lost by leaving")))
        return emit + self._next_shooter(view, "left", leaving=seat), None

    def pass_dice(self, view: SessionView, command: Command) -> tuple[Emit, Refusal | None]:
        cfg, play = _cfg(view), cast(CrapsPlay, view.play)
        if play.shooter is None:
            return [], ("NO_SHOOTER", "command_type", "nobody holds the dice", "")
        if play.point is not None:
            return [], ("REFUSED", "command_type", f"the point {play.point} is on: the shooter "
                        "throws until it is decided (or leaves and loses the pass line)",
                        str(RULE_SECTION[cfg.profile]))
        return self._next_shooter(view, "passed"), None

    def _next_shooter(self, view: SessionView, reason: ShooterReason,
                      leaving: int | None = None) -> Emit:
        cfg, play = _cfg(view), cast(CrapsPlay, view.play)
        direction = cast(ShooterDirection, self.profile(cfg).switch(SHOOTER_DIRECTION.name))
        seated = {s: p for s, p in view.seated.items() if s != leaving}
        change = shooter.passes(cfg.profile, direction, seated, play.shooter, reason)
        return [] if change is None else [(ShooterChanged, change)]

    def close_problem(self, view: SessionView) -> Problem | None:
        bets = cast(CrapsPlay, view.play).bets
        if bets:
            return "command_type", (f"{len(bets)} bets are still on the craps layout; they are "
                                    f"decided, or withdrawn where the rules allow, first")
        return None

    # ----- the single-result interface (unused: `record` settles a roll) ------------------
    def result_of(self, config: TableOpenedData, command: Command) -> tuple[str, Problem | None]:
        assert isinstance(command, RecordRoll)
        return f"{command.payload.dice[0]}+{command.payload.dice[1]}", None

    def result_payload(self, config: TableOpenedData, round_id: str, result: str) -> object:
        raise NotImplementedError("a roll is recorded by `record`, with the layout")

    def is_result(self, config: TableOpenedData, result: str) -> bool:
        """Two dice 1–6, "3-4" (surveillance) or "3+4" (the table): the same dice at craps and
        mini craps. A pocket, 00 or a die of 7 is no result of this table."""
        return _DICE.match(result) is not None

    def result_key(self, config: TableOpenedData, result: str) -> str:
        """The dice as the table records them, in order: the CCTV's "4-3" is "3+4" (a roll is
        decided by its two faces; only the called roll keeps the dealer's order)."""
        found = _DICE.match(result)
        if found is None:
            return result
        a, b = sorted(int(d) for d in found.groups())
        return f"{a}+{b}"

    def settle(self, config: TableOpenedData, round_id: str, bets: Iterable[BetPlacedData],
               result: str, carried: Iterable[BetPlacedData] = ()) -> list[BetSettledData]:
        raise NotImplementedError("a roll is settled by `record`, with the layout")

    def correct(self, view: SessionView, rnd: Round, result: str) -> Correction:
        """Re-decide the round's roll with the true dice in the state it was thrown in
        (games/roll_correction.py): exact where both rolls decide a bet, else for the pit
        manager."""
        cfg, play = _cfg(view), cast(CrapsPlay, view.play)
        thrown = play.thrown.get(rnd.round_id)
        if thrown is None:
            return roll_correction.unknown_layout(cfg, rnd)
        found = _DICE.match(result)
        assert found is not None, "the session asks is_result first"
        later = [r for r in view.rounds.values() if r.number > rnd.number]
        return roll_correction.correct(cfg, PayTable(self.profile(cfg)), thrown, rnd, later,
                                       Roll(int(found.group(1)), int(found.group(2))))


def _keep_thrown(play: CrapsPlay, rolled: DiceRolledData) -> None:
    """The layout as this roll was thrown in (copies: the play's bets change later)."""
    play.thrown[rolled.round_id] = Thrown(
        play.point, rolled.dice, play.rolls, tuple(replace(b) for b in play.bets.values()))
    while len(play.thrown) > KEEP_THROWN:
        del play.thrown[next(iter(play.thrown))]


def _raw(bet: BetSpec, bet_id: str) -> dict[str, Any]:
    raw: dict[str, Any] = {"id": bet_id, "kind": bet.kind, "amount": bet.stake.amount}
    if bet.numbers:
        raw["number"] = int(bet.numbers[0])
    if bet.on is not None:
        raw["on"] = bet.on
    if bet.working:
        raw["working"] = True
    return raw


def _field(engine_field: str) -> str:
    return {"number": "payload.bet.numbers", "amount": "payload.bet.stake.amount",
            "id": "payload.bet_id"}.get(engine_field, f"payload.bet.{engine_field}")


def _cited(reason: str, cfg: TableOpenedData) -> str:
    """The first seed section an engine refusal quotes, else the profile's rules section."""
    found = _CITED.search(reason)
    return found.group(0) if found else str(RULE_SECTION[cfg.profile])


def _cfg(view: SessionView) -> TableOpenedData:
    assert view.config is not None
    return view.config


def _money(cfg: TableOpenedData, amount: int) -> Money:
    return Money(amount=amount, currency=cfg.currency)


CRAPS = register(Craps("craps"))
MINI_CRAPS = register(Craps("mini_craps"))
