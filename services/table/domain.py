"""The table session aggregate (sesión de mesa) of any table game. Pure: no I/O.

Life of a round (pase, seed 002 §1.1 q): RoundOpened → BetPlaced… → BetsClosed («no más
apuestas») → the result (roulette: SpinResulted) → BetSettled… → RoundSettled. Every command
either becomes events or a rejection event that says why (BetRejected for bets,
CommandRejected for the rest), so the audit trail shows refused actions too.

The session keeps what every game shares — who may command (contracts/permissions.py), limits
and the profile's over-maximum switch, seats, rounds, «no más apuestas», payout holds and
corrections, closing — and asks the game's adapter (services/table/games/) for the rest.

Payout holds (seed 002 §1.3; seed 004 RG §6) come from the vision service's round checks:
VerificationRequested → PayoutsHeld; VerificationResolved → SettlementCorrected (when the
result was wrong) and PayoutsReleased; a hold still open at its deadline → PayoutsReleased
(EXPIRED). The table keeps playing meanwhile. A hold is only started while there is something
to withhold and before its deadline, else PayoutsNotHeld: the payouts go out and the check is a
review after payment. Every hold decision is stamped with the time the table made it (`now`),
never the request's or the officer's: "within the hold" means before the release.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from functools import singledispatchmethod
from typing import Any

from contracts.envelope import Command, Event
from contracts.money import Money
from contracts.payouts import (
    PayoutsHeld,
    PayoutsHeldData,
    PayoutsNotHeld,
    PayoutsNotHeldData,
    PayoutsReleased,
    PayoutsReleasedData,
    ReleaseOutcome,
    SettlementCorrected,
    SettlementCorrectedData,
)
from contracts.permissions import authorize
from contracts.table import (
    BetLimits,
    BetPlaced,
    BetPlacedData,
    BetRejected,
    BetRejectedData,
    BetsClosed,
    BetsClosedData,
    BetSettled,
    BetSpec,
    ChangeBet,
    ChangeLimits,
    CloseBets,
    CloseTable,
    CommandRejectCode,
    CommandRejected,
    CommandRejectedData,
    DiceRolled,
    LeaveSeat,
    LimitsChanged,
    OpenRound,
    OpenTable,
    PassDice,
    PlaceBet,
    PlayerLeft,
    PlayerLeftData,
    PlayerSeated,
    PlayerSeatedData,
    RecordRoll,
    RecordSpin,
    RejectCode,
    RemoveBet,
    RoundOpened,
    RoundOpenedData,
    RoundSettled,
    RoundSettledData,
    SeatPlayer,
    SpinResulted,
    TableClosed,
    TableOpened,
    TableOpenedData,
)
from contracts.vision import VerificationRequested, VerificationResolved
from services.rules.core import RulesError, get_profile
from services.rules.core.limits import TableLimits, apply_limits
from services.runtime.aggregate import Aggregate
from services.table import snapshot
from services.table.games import Emit, GameAdapter, Refusal, adapter_for
from services.table.policy import EXCESS_RULE, LATE_BET_RULE, LIMIT_RULE
from services.table.rounds import Round, RoundState

# Rounds remembered for holds and corrections; a round whose verification is still open is kept
# longer (up to HELD_ROUNDS), since the surveillance room may decide after the 30 minutes.
KEEP_ROUNDS = 100
HELD_ROUNDS = 2000
# A seat is freed after «más de tres pases consecutivos» not played, where the game's seed says
# so (the adapter's seat_release_rule; domain.md §7.4, §1.4).
IDLE_ROUNDS_ALLOWED = 3

BetProblem = tuple[RejectCode, str, str, str]  # (code, field, reason, rule) of a BetRejected
Placement = tuple[BetSpec, Money | None, str]   # (the bet that plays, excess returned, rule)


class TableSession(Aggregate):
    PRODUCER = "table-service"
    # The layout of snapshot_state() (services/table/snapshot.py); bump it when that changes,
    # so older snapshots are ignored and the table is rebuilt from the log.
    STATE_VERSION = 3  # 2: the game's `play`; 3: craps keeps the layout of recent rolls

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.config: TableOpenedData | None = None
        self.closed = False
        self.round: Round | None = None
        self.rounds: dict[str, Round] = {}  # the recent ones, oldest first, for holds
        self.rounds_played = 0
        # Even-chance stakes «en prisión» (seed 000 §4.1.4.2 item 11), by bet id: the next
        # spin decides them.
        self.prisoners: dict[str, BetPlacedData] = {}
        self.seated: dict[int, str] = {}  # seat -> player id
        self.idle: dict[int, int] = {}    # seat -> consecutive settled rounds without a bet
        # The game's own state across rounds, folded by its adapter (craps: the point, the
        # layout, the shooter); None for a game that keeps none (roulette).
        self.play: Any = None

    @property
    def game(self) -> GameAdapter:
        adapter = adapter_for(self.cfg.game)
        assert adapter is not None, f"no adapter for {self.cfg.game}"
        return adapter

    @property
    def cfg(self) -> TableOpenedData:
        """The table's configuration: handle() refuses every command but OpenTable before
        the table is opened, so the deciders below always have one."""
        assert self.config is not None, "the table is not open"
        return self.config

    @property
    def current(self) -> Round:
        """The round in play: the events of a round are only triggered while there is one."""
        assert self.round is not None, "no round in play"
        return self.round

    # ===== commands ============================================================================
    def handle(self, command: Command) -> None:
        """Decide on a command: trigger its events (none for a redelivered command). The
        caller collects them (`collect()`), as the runtime's unit of work does."""
        if self.has_handled(command) and not isinstance(command, (RecordSpin, RecordRoll)):
            return
        # A redelivered command was judged the first time: a key revoked since then must not
        # turn an applied RecordSpin (whose redelivery may finish its settlement) into a refusal.
        forbidden = None if self.has_handled(command) else authorize(command)
        if forbidden is not None:
            self._refuse(command, *forbidden, code="FORBIDDEN")
        elif self.config is None and not isinstance(command, OpenTable):
            self._refuse(command, "target_id", "the table is not open")
        elif self.closed:
            self._refuse(command, "target_id", "the table is closed")
        else:
            self._decide(command)

    @singledispatchmethod
    def _decide(self, command: Command) -> None:
        self._refuse(command, "command_type", f"{command.command_type} is not a table command")

    @_decide.register
    def _open_table(self, command: OpenTable) -> None:
        if self.config is not None:
            return self._refuse(command, "target_id", "the table is already open")
        cfg = command.payload
        game = adapter_for(cfg.game)
        if game is None:
            return self._refuse(command, "payload.game", f"no live table adapter for {cfg.game} "
                                f"yet; the rules engine settles it offline (casino rules "
                                f"settle)", code="NO_TABLE_ADAPTER")
        problem = _limits_problem(cfg.min_bet, cfg.max_bet, cfg.bet_limits) or \
            game.config_problem(cfg)
        if problem is not None:
            return self._refuse(command, *problem)
        self.trigger(TableOpened, cfg, command)

    @_decide.register
    def _change_limits(self, command: ChangeLimits) -> None:
        p = command.payload
        if self.round is not None and self.round.state is not RoundState.SETTLED:
            return self._refuse(command, "command_type", f"round {self.round.round_id} is "
                                f"still {self.round.state.value}: limits change between rounds")
        assert self.config is not None
        problem = _limits_problem(p.min_bet, p.max_bet, p.bet_limits) or \
            self.game.config_problem(self.config.model_copy(update=dict(p)))
        if problem is not None:
            return self._refuse(command, *problem)
        self.trigger(LimitsChanged, p, command)

    # ===== seats (domain.md §7.4) ==============================================================
    @_decide.register
    def _seat_player(self, command: SeatPlayer) -> None:
        seat, player = command.payload.seat, command.payload.player_id
        problem = self._seat_problem(seat)
        if problem is None and seat in self.seated:
            problem = ("payload.seat", f"seat {seat} is taken by {self.seated[seat]}",
                       "SEAT_TAKEN")
        if problem is None and player in self.seated.values():
            at = next(s for s, p in self.seated.items() if p == player)
            problem = ("payload.player_id", f"{player} is already seated at seat {at}",
                       "ALREADY_SEATED")
        if problem is not None:
            return self._refuse(command, problem[0], problem[1], code=problem[2])
        self.trigger(PlayerSeated, PlayerSeatedData(seat=seat, player_id=player), command)
        self._trigger_all(self.game.player_seated(self), command)

    @_decide.register
    def _leave_seat(self, command: LeaveSeat) -> None:
        seat, player = command.payload.seat, command.payload.player_id
        if self.seated.get(seat) != player:
            return self._refuse(command, "payload.player_id",
                                f"{player} is not seated at seat {seat}", code="SEAT_EMPTY")
        emit, refusal = self.game.seat_leaving(self, seat)  # craps: the shooter leaving
        if refusal is not None:
            return self._refuse_with(command, refusal)
        self._trigger_all(emit, command)
        self.trigger(PlayerLeft, PlayerLeftData(seat=seat, player_id=player), command)

    def _seat_problem(self, seat: int) -> tuple[str, str, CommandRejectCode] | None:
        assert self.config is not None
        if seat > self.config.seats:
            return ("payload.seat", f"seat {seat}: the table has {self.config.seats} seats",
                    "NO_SUCH_SEAT")
        return None

    def _release_idle_seats(self, cause: Command) -> None:
        """Free the seats not played for more than three consecutive rounds, where the game's
        seed says so («por más de tres pases consecutivos», e.g. seed 002 §2.1.6.3)."""
        rule = self.game.seat_release_rule
        if rule is None:
            return
        for seat, player in sorted(self.seated.items()):
            if self.idle.get(seat, 0) > IDLE_ROUNDS_ALLOWED:
                self.trigger(PlayerLeft, PlayerLeftData(
                    seat=seat, player_id=player, reason="not_playing",
                    rounds_not_played=self.idle[seat], rule=rule), cause)

    @_decide.register
    def _open_round(self, command: OpenRound) -> None:
        if self.round is not None and self.round.state is not RoundState.SETTLED:
            return self._refuse(command, "command_type",
                                f"round {self.round.round_id} is still {self.round.state.value}")
        number = self.rounds_played + 1
        self.trigger(RoundOpened, RoundOpenedData(round_id=f"{self.id}.{number}",
                                                  round_number=number), command)
        self._trigger_all(self.game.round_opening(self), command)

    @_decide.register
    def _place_bet(self, command: PlaceBet) -> None:
        p = command.payload
        placed, problem = None, self._bet_problem(command)
        if problem is None:
            placed, problem = self._within_limits(p.bet)
        if placed is not None:
            bet, excess, rule = placed
            invalid = self.game.bet_problem(self.cfg, bet) or \
                self.game.admit(self, bet, p.bet_id)
            if invalid is None:
                self.trigger(BetPlaced, BetPlacedData(
                    round_id=self.current.round_id, bet_id=p.bet_id, seat=p.seat,
                    player_id=p.player_id, bet=bet, excess_returned=excess, limit_rule=rule),
                    command)
                return
            problem = ("INVALID_BET", invalid[0], invalid[1], "")
        assert problem is not None, "a bet is either placed or refused"
        code, fld, reason, rule = problem
        self.trigger(BetRejected, BetRejectedData(
            round_id=self.round.round_id if self.round else None, bet_id=p.bet_id, seat=p.seat,
            player_id=p.player_id, bet=p.bet, code=code, field=fld, reason=reason, rule=rule),
            command)

    def _bet_problem(self, command: PlaceBet) -> BetProblem | None:
        """(code, field, reason, rule) when the bet must be refused, else None."""
        cfg, bet, rnd = self.cfg, command.payload.bet, self.round
        if rnd is None or rnd.state is RoundState.SETTLED:
            return "NO_OPEN_ROUND", "target_id", "no round is open for bets", ""
        if rnd.state is not RoundState.BETTING:
            return ("BETTING_CLOSED", "payload", "bet placed after «no más apuestas»: void, "
                    "chips returned to the player", LATE_BET_RULE[cfg.profile])
        bet_id = command.payload.bet_id
        if bet_id in rnd.bets or bet_id in self.prisoners or \
                self.game.holds_bet(self.play, bet_id):
            return "DUPLICATE_BET", "payload.bet_id", "a bet with this id is already placed", ""
        if bet.kind not in self.game.bet_kinds:
            return ("INVALID_BET", "payload.bet.kind", f"{bet.kind} is not a bet of a "
                    f"{cfg.game} table; kinds: {', '.join(self.game.bet_kinds)}", "")
        if bet.stake.currency != cfg.currency:
            return ("WRONG_CURRENCY", "payload.bet.stake.currency",
                    f"the table plays in {cfg.currency}, not {bet.stake.currency}", "")
        return self._seat_of_bet(command) if cfg.seating == "enforced" else None

    def _seat_of_bet(self, command: PlaceBet) -> BetProblem | None:
        """With seating enforced, a bet comes from the player seated at its seat."""
        seat, player = command.payload.seat, command.payload.player_id
        if self._seat_problem(seat) is not None:
            return ("NO_SUCH_SEAT", "payload.seat",
                    f"seat {seat}: the table has {self.cfg.seats} seats", "")
        if seat not in self.seated:
            return ("SEAT_EMPTY", "payload.seat",
                    f"seat {seat} is empty: seat the player first (SeatPlayer)", "")
        if self.seated[seat] != player:
            return ("NOT_AT_SEAT", "payload.player_id",
                    f"{player} is not the player at seat {seat} ({self.seated[seat]})", "")
        return None

    def _within_limits(self, bet: BetSpec) -> tuple[Placement | None, BetProblem | None]:
        """(the bet as it plays within its kind's limits, the excess handed back, its rule),
        or the (code, field, reason, rule) refusing it. Under the minimum: refused («En ningún
        momento el monto de las apuestas podrá ser … inferior al mínimo», seed 002 §1.2.1.1).
        Over the maximum: per the profile's `over_max` switch (rules engine)."""
        cfg = self.cfg
        parts = self.game.limit_parts(cfg, bet)
        for kind, stake in parts:
            lim = self.game.limits_for(cfg, kind)
            if stake < lim.min_bet:
                return None, ("UNDER_MINIMUM", "payload.bet.stake.amount",
                              f"{_part(bet, kind, stake)} is under the minimum "
                              f"{lim.min_bet}: {_limits_text(kind, lim, cfg.currency)}",
                              LIMIT_RULE[cfg.profile])
        if len(parts) > 1:
            return self._whole_within_limits(bet, parts)
        return self._played_within_maximum(bet)

    def _whole_within_limits(self, bet: BetSpec, parts: list[tuple[str, int]]
                             ) -> tuple[Placement | None, BetProblem | None]:
        """A bet made of parts (a called bet's equal units) is not cut to a maximum, since
        cutting one part would unbalance it: a part over its maximum refuses the bet."""
        cfg = self.cfg
        for kind, stake in parts:
            lim = self.game.limits_for(cfg, kind)
            if stake > lim.max_bet:
                return None, ("OVER_MAXIMUM", "payload.bet.stake.amount",
                              f"{_part(bet, kind, stake)} is over the maximum {lim.max_bet}: "
                              f"{_limits_text(kind, lim, cfg.currency)}; a {bet.kind} bet "
                              f"is not cut, stake it within the limits",
                              LIMIT_RULE[cfg.profile])
        return (bet, None, ""), None

    def _played_within_maximum(self, bet: BetSpec) -> tuple[Placement | None, BetProblem | None]:
        """Over the maximum: the maximum plays and the excess goes back (BO, CL; AR when it is
        noticed before the spin, as it is here), or the bet is refused (LIVE-GG)."""
        cfg = self.cfg
        lim, stake = self.game.limits_for(cfg, bet.kind), bet.stake.amount
        try:
            out = apply_limits(stake, TableLimits(lim.min_bet, lim.max_bet),
                               get_profile(cfg.profile), "payload.bet.stake.amount",
                               game=cfg.game)
        except RulesError:
            return None, ("OVER_MAXIMUM", "payload.bet.stake.amount",
                          f"{stake} is over the maximum {lim.max_bet}: "
                          f"{_limits_text(bet.kind, lim, cfg.currency)}",
                          LIMIT_RULE[cfg.profile])
        if not out.excess:
            return (bet, None, ""), None
        # the maximum plays; the chips over it go back, so the counted chips no longer apply
        playing = bet.model_copy(update={"stake": self._money(out.playing_stake), "chips": ()})
        return (playing, self._money(out.excess), EXCESS_RULE[cfg.profile]), None

    @_decide.register
    def _close_bets(self, command: CloseBets) -> None:
        if self.round is None or self.round.state is not RoundState.BETTING:
            return self._refuse(command, "command_type", "no round is open for bets")
        refusal = self.game.close_bets_problem(self)  # craps: the shooter's line bet
        if refusal is not None:
            return self._refuse_with(command, refusal)
        self.trigger(BetsClosed, BetsClosedData(round_id=self.round.round_id,
                                                bet_count=len(self.round.bets)), command)

    @_decide.register
    def _change_bet(self, command: ChangeBet) -> None:
        """Withdraw, reduce or increase a bet on the layout before the next roll (craps,
        domain.md §4.6); the adapter refuses what the profile does not allow, with the rule."""
        if self.round is None or self.round.state is not RoundState.BETTING:
            return self._refuse(command, "command_type",
                                "bets change only while a round is open for bets")
        emit, refusal = self.game.change_bet(self, command)
        if refusal is not None:
            return self._refuse_with(command, refusal)
        self._trigger_all(emit, command)

    _decide.register(RemoveBet, _change_bet)

    @_decide.register
    def _pass_dice(self, command: PassDice) -> None:
        if self.round is not None and self.round.state not in (RoundState.BETTING,
                                                               RoundState.SETTLED):
            return self._refuse(command, "command_type", "the dice pass between rolls")
        emit, refusal = self.game.pass_dice(self, command)
        if refusal is not None:
            return self._refuse_with(command, refusal)
        self._trigger_all(emit, command)

    @_decide.register
    def _record_spin(self, command: RecordSpin) -> None:
        rnd, cfg = self.round, self.config
        assert cfg is not None
        if self.has_handled(command):
            # Redelivered after a crash: finish the settlement if it was cut short (a game
            # that keeps its layout triggers its result and settlement in one batch).
            if rnd is not None and rnd.state is RoundState.SPUN and not self.game.keeps_layout:
                self._settle(command)
            return
        if command.command_type != self.game.result_command:
            return self._refuse(command, "command_type", f"a {cfg.game} table records its "
                                f"result with {self.game.result_command}")
        if rnd is None or rnd.state is not RoundState.CLOSED:
            return self._refuse(command, "command_type",
                                "a result can only be recorded after «no más apuestas»")
        if self.game.keeps_layout:
            emit, refusal = self.game.record(self, command)
            if refusal is not None:
                return self._refuse_with(command, refusal)
            self._trigger_all(emit, command)
            return self._round_settled(command)
        result, problem = self.game.result_of(cfg, command)
        if problem is not None:
            return self._refuse(command, *problem)
        self.trigger(SpinResulted, self.game.result_payload(cfg, rnd.round_id, result), command)
        self._settle(command)

    _decide.register(RecordRoll, _record_spin)

    def _settle(self, command: Command) -> None:
        rnd, cfg = self.round, self.config
        assert rnd is not None and cfg is not None and rnd.pocket is not None
        open_bets = [b for bid, b in rnd.bets.items() if bid not in rnd.settled]
        jailed = [b for b in self.prisoners.values() if b.round_id != rnd.round_id]
        for data in self.game.settle(cfg, rnd.round_id, open_bets, rnd.pocket, jailed):
            self.trigger(BetSettled, data, command)
        self._round_settled(command)

    def _round_settled(self, command: Command) -> None:
        """RoundSettled: the bets this round decided (a game that keeps its layout: bets placed
        in earlier rounds too, each wagered where it is decided)."""
        rnd, cfg = self.current, self.cfg
        assert rnd.pocket is not None
        wagered = sum(s.stake.amount for s in rnd.settled.values() if s.imprisoned_from is None)
        paid = sum(s.paid.amount for s in rnd.settled.values())
        self.trigger(RoundSettled, RoundSettledData(
            round_id=rnd.round_id, round_number=rnd.number, pocket=rnd.pocket,
            bet_count=len(rnd.settled), wagered=Money(amount=wagered, currency=cfg.currency),
            paid=Money(amount=paid, currency=cfg.currency), house_win=wagered - paid), command)
        self._release_idle_seats(command)

    # ===== payout holds (seed 002 §1.3; seed 004 RG §6) ======================================
    def hold_payouts(self, request: VerificationRequested, now: datetime) -> None:
        """Hold the winning payouts of a round the surveillance room must check, if there are
        any and the hold's deadline has not passed by `now` (when the table gets the request);
        otherwise say why none is held (PayoutsNotHeld): the check is a review after payment."""
        rnd = self.rounds.get(request.payload.round_id)
        if rnd is None or not rnd.is_settled or rnd.hold is not None or rnd.not_held or \
                self.has_handled(request):
            return
        winners, p = rnd.winners(), request.payload
        late, nothing = now >= p.hold_deadline, not winners
        if late or nothing:
            self.trigger(PayoutsNotHeld, PayoutsNotHeldData(
                round_id=rnd.round_id, check_id=request.aggregate_id, reason=p.reason,
                why="DEADLINE_PASSED" if late else "NOTHING_TO_HOLD", bet_ids=tuple(winners),
                paid=self._money(sum(winners.values())), deadline=p.hold_deadline,
                requested_at=request.occurred_at), request, occurred_at=now)
            return
        self.trigger(PayoutsHeld, PayoutsHeldData(
            round_id=rnd.round_id, check_id=request.aggregate_id, reason=p.reason,
            bet_ids=tuple(winners), held=self._money(sum(winners.values())),
            deadline=p.hold_deadline), request, occurred_at=now)

    def resolve(self, resolution: VerificationResolved, now: datetime) -> None:
        """Surveillance decided: re-settle if the result was wrong, then release the hold.
        Within the hold means the table still held the payouts at `now`, by the deadline."""
        p = resolution.payload
        rnd = self.rounds.get(p.round_id)
        if rnd is None or rnd.resolved or self.has_handled(resolution):
            return
        held = rnd.hold is not None and rnd.hold_open
        # A result not of this table (a dice result, 00 on a one-zero wheel): the vision
        # service refuses such a correction; this guards the ledger against one logged before.
        if p.outcome == "CORRECTED" and self.game.is_result(self.cfg, p.result) and \
                self.game.result_key(self.cfg, p.result) != \
                self.game.result_key(self.cfg, rnd.pocket or ""):
            self._correct(rnd, resolution, now, after_payment=not held)
        if held:
            assert rnd.hold is not None
            self._release(rnd, p.outcome, resolution, p.resolved_by,
                          within=now <= rnd.hold.payload.deadline, at=now)

    def release_expiring(self, now: datetime, margin: timedelta = timedelta(0)) -> None:
        """Release the holds whose 30 minutes end by `now + margin`: a payout may be held
        «por un lapso … que no podrá exceder de 30 minutos», decided or not."""
        for rnd in self.rounds.values():
            if rnd.hold is not None and rnd.hold_open and rnd.hold.payload.deadline <= now + margin:
                self._release(rnd, "EXPIRED", rnd.hold, self.PRODUCER,
                              within=now <= rnd.hold.payload.deadline, at=now)

    def _correct(self, rnd: Round, resolution: VerificationResolved, now: datetime, *,
                 after_payment: bool) -> None:
        cfg, p = self.config, resolution.payload
        assert cfg is not None and rnd.pocket is not None
        fixed = self.game.correct(self, rnd, p.result)
        delta = sum(f.paid_after.amount - f.paid_before.amount for f in fixed.fixes)
        self.trigger(SettlementCorrected, SettlementCorrectedData(
            round_id=rnd.round_id, check_id=resolution.aggregate_id, pocket_before=rnd.pocket,
            pocket_after=self.game.result_key(cfg, p.result), corrections=tuple(fixed.fixes),
            currency=cfg.currency, paid_delta=delta, house_win_delta=-delta,
            corrected_by=p.resolved_by, note=p.note, for_pit_manager=tuple(fixed.review),
            game_note=fixed.note,
            after_payment=after_payment), resolution, occurred_at=now)

    def _release(self, rnd: Round, outcome: ReleaseOutcome, cause: Event, by: str, *,
                 within: bool, at: datetime | None = None) -> None:
        assert rnd.hold is not None
        winners = rnd.winners()
        self.trigger(PayoutsReleased, PayoutsReleasedData(
            round_id=rnd.round_id, check_id=rnd.hold.payload.check_id, outcome=outcome,
            bet_ids=tuple(winners), released=self._money(sum(winners.values())),
            within_hold=within, released_by=by), cause, occurred_at=at)

    def _money(self, amount: int) -> Money:
        assert self.config is not None
        return Money(amount=amount, currency=self.config.currency)

    @_decide.register
    def _close_table(self, command: CloseTable) -> None:
        if self.round is not None and self.round.state not in (RoundState.SETTLED,):
            return self._refuse(command, "command_type",
                                f"round {self.round.round_id} is not settled yet")
        if self.prisoners:
            return self._refuse(command, "command_type",
                                f"{len(self.prisoners)} even-chance stakes are «en prisión» "
                                f"until the next spin (seed 000 §4.1.4.2 item 11)")
        problem = self.game.close_problem(self)
        if problem is not None:
            return self._refuse(command, *problem)
        self.trigger(TableClosed, command.payload, command)

    def _refuse(self, command: Command, fld: str, reason: str,
                code: CommandRejectCode = "REFUSED", rule: str = "") -> None:
        self.trigger(CommandRejected, CommandRejectedData(
            command_id=command.command_id, command_type=command.command_type,
            field=fld, reason=reason, code=code, rule=rule), command)

    def _refuse_with(self, command: Command, refusal: Refusal) -> None:
        code, fld, reason, rule = refusal
        self._refuse(command, fld, reason, code=code, rule=rule)

    def _trigger_all(self, emit: Emit, cause: Command) -> None:
        """The events a game adapter decided on, in order."""
        for event_cls, payload in emit:
            self.trigger(event_cls, payload, cause)

    # ===== snapshots (services/table/snapshot.py) ==============================================
    def snapshot_state(self) -> dict[str, Any]:
        """Everything but the version and the handled ids (the base class keeps those), as
        JSON-able values; the game's play as its adapter writes it."""
        state = snapshot.dump(self)
        state["play"] = None if self.config is None else self.game.play_to_json(self.play)
        return state

    def restore_state(self, state: dict[str, Any]) -> None:
        """The inverse of snapshot_state, on a new session (the runtime's base class calls it,
        then sets the version and the handled ids)."""
        snapshot.load(self, state)
        if self.config is not None:
            self.play = self.game.play_from_json(self.config, state["play"])

    # ===== state changes =======================================================================
    def apply(self, event: Event) -> None:
        """The session's own fold (`mutate`), then the game's (its play)."""
        super().apply(event)
        if self.play is not None:
            self.game.evolve(self.play, event)

    @singledispatchmethod
    def mutate(self, event: Event) -> None:
        """Events that change nothing here (rejections) fall through to this."""

    @mutate.register
    def _(self, event: TableOpened) -> None:
        self.config = event.payload
        adapter = adapter_for(event.payload.game)
        self.play = adapter.new_play(event.payload) if adapter is not None else None

    @mutate.register
    def _(self, event: LimitsChanged) -> None:
        assert self.config is not None
        self.config = self.config.model_copy(update=dict(event.payload))

    @mutate.register
    def _(self, event: PlayerSeated) -> None:
        self.seated[event.payload.seat] = event.payload.player_id
        self.idle[event.payload.seat] = 0

    @mutate.register
    def _(self, event: PlayerLeft) -> None:
        self.seated.pop(event.payload.seat, None)
        self.idle.pop(event.payload.seat, None)

    @mutate.register
    def _(self, event: RoundOpened) -> None:
        self.round = Round(event.payload.round_id, event.payload.round_number)
        self.rounds[self.round.round_id] = self.round
        self._forget_old_rounds()

    def _forget_old_rounds(self) -> None:
        """Keep the last KEEP_ROUNDS rounds, and held rounds not yet resolved a while longer."""
        latest = self.round.number if self.round else 0
        for round_id, rnd in list(self.rounds.items()):
            age = latest - rnd.number
            waiting = (rnd.hold is not None or rnd.not_held) and not rnd.resolved
            if age >= HELD_ROUNDS or (age >= KEEP_ROUNDS and not waiting):
                del self.rounds[round_id]

    @mutate.register
    def _(self, event: BetPlaced) -> None:
        self.current.bets[event.payload.bet_id] = event.payload

    @mutate.register
    def _(self, event: BetsClosed) -> None:
        self.current.state = RoundState.CLOSED

    @mutate.register
    def _(self, event: SpinResulted) -> None:
        self.current.pocket = event.payload.pocket
        self.current.state = RoundState.SPUN

    @mutate.register
    def _(self, event: DiceRolled) -> None:
        self.current.pocket = event.payload.result
        self.current.state = RoundState.SPUN

    @mutate.register
    def _(self, event: BetSettled) -> None:
        p = event.payload
        self.current.settled[p.bet_id] = p
        if p.imprisoned_from is not None:
            self.current.jailed[p.bet_id] = self.prisoners[p.bet_id]
        if p.outcome == "prison":
            self.prisoners[p.bet_id] = self.current.bets[p.bet_id]
        else:
            self.prisoners.pop(p.bet_id, None)

    @mutate.register
    def _(self, event: RoundSettled) -> None:
        self.current.state = RoundState.SETTLED
        self.rounds_played = event.payload.round_number
        played = {b.seat for b in self.current.bets.values()}
        for seat in self.seated:
            self.idle[seat] = 0 if seat in played else self.idle.get(seat, 0) + 1

    @mutate.register
    def _(self, event: TableClosed) -> None:
        self.closed = True

    @mutate.register
    def _(self, event: PayoutsHeld) -> None:
        rnd = self.rounds[event.payload.round_id]
        rnd.hold, rnd.hold_open = event, True

    @mutate.register
    def _(self, event: PayoutsNotHeld) -> None:
        self.rounds[event.payload.round_id].not_held = True

    @mutate.register
    def _(self, event: PayoutsReleased) -> None:
        rnd = self.rounds[event.payload.round_id]
        rnd.hold_open = False
        rnd.resolved = rnd.resolved or event.payload.outcome != "EXPIRED"

    @mutate.register
    def _(self, event: SettlementCorrected) -> None:
        p = event.payload
        rnd = self.rounds[p.round_id]
        rnd.pocket, rnd.resolved = p.pocket_after, True
        for fix in p.corrections:
            rnd.corrections[fix.bet_id] = fix
            if fix.outcome_after == "prison" and fix.decided_in is None:
                self.prisoners[fix.bet_id] = rnd.bets[fix.bet_id]  # the next spin decides it
            elif fix.outcome_before == "prison":
                self.prisoners.pop(fix.bet_id, None)


def _limits_problem(min_bet: int, max_bet: int, per_kind: dict) -> tuple[str, str] | None:
    """(field, reason) when the table's or a bet kind's limits are not 0 <= min <= max, max > 0."""
    if min_bet > max_bet or max_bet == 0:
        return "payload.max_bet", "max_bet must be positive and not below min_bet"
    for kind, lim in per_kind.items():
        if lim.min_bet > lim.max_bet or lim.max_bet == 0:
            return (f"payload.bet_limits.{kind}.max_bet",
                    "max_bet must be positive and not below min_bet")
    return None


def _part(bet: BetSpec, kind: str, stake: int) -> str:
    return str(stake) if kind == bet.kind else f"the {kind} of {stake} in this {bet.kind}"


def _limits_text(kind: str, lim: BetLimits, currency: str) -> str:
    return f"{kind} limits {lim.min_bet}–{lim.max_bet} ({currency} minor units)"
