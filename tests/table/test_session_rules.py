"""Limits as the seeds say (per profile's over_max switch), seats, permissions and games."""
import pytest

from contracts.envelope import Actor
from contracts.money import Money
from contracts.permissions import authorize
from contracts.table import (
    BetLimits,
    BetPlaced,
    BetRejected,
    BetSpec,
    ChangeLimits,
    CloseBets,
    CloseTable,
    CommandRejected,
    LeaveSeat,
    LimitsData,
    OpenRound,
    OpenTable,
    PlaceBet,
    PlaceBetData,
    PlayerLeft,
    PlayerSeated,
    RecordSpin,
    RecordSpinData,
    SeatData,
    SeatPlayer,
    TableOpenedData,
)
from services.table.domain import TableSession
from services.table.games import ADAPTERS
from services.table.games.roulette import Roulette
from tests.table.unit import T, cmd, handle

CURRENCY = {"BO": "BOB", "AR-RUL": "ARS", "CL-ARICA": "CLP", "LIVE-GG": "EUR"}
WHEEL = {"BO": "european", "AR-RUL": "european", "CL-ARICA": "american", "LIVE-GG": "european"}


def opened(profile="BO", seating="open", **kw) -> TableSession:
    table = TableSession(T)
    cfg = dict(game="roulette", variant=WHEEL[profile], profile=profile,
               currency=CURRENCY[profile], min_bet=100, max_bet=50_000, seating=seating) | kw
    [event] = handle(table, cmd(OpenTable, payload=TableOpenedData(**cfg)))
    assert event.event_type == "TableOpened", event.payload
    handle(table, cmd(OpenRound))
    return table


def bet(amount, kind="straight", numbers=("17",), index=None, seat=1, player="P1",
        currency="BOB", bet_id="b1"):
    return cmd(PlaceBet, payload=PlaceBetData(bet_id=bet_id, seat=seat, player_id=player,
                                              bet=BetSpec(kind=kind, numbers=numbers, index=index,
                                                          stake=Money(amount=amount,
                                                                      currency=currency))))


def place(table, amount, **kw):
    [event] = handle(table, bet(amount, currency=table.config.currency, **kw))
    return event


# ----- limits ---------------------------------------------------------------------------------

@pytest.mark.parametrize("profile", ["BO", "AR-RUL", "CL-ARICA", "LIVE-GG"])
def test_exactly_the_maximum_and_exactly_the_minimum_are_accepted_whole(profile):
    table = opened(profile)
    at_max, at_min = place(table, 50_000, bet_id="max"), place(table, 100, bet_id="min")
    for event, amount in ((at_max, 50_000), (at_min, 100)):
        assert isinstance(event, BetPlaced) and event.payload.bet.stake.amount == amount
        assert event.payload.excess_returned is None


@pytest.mark.parametrize("profile", ["BO", "AR-RUL", "CL-ARICA", "LIVE-GG"])
def test_one_under_the_minimum_is_refused(profile):
    event = place(opened(profile), 99)
    assert isinstance(event, BetRejected) and event.payload.code == "UNDER_MINIMUM"
    assert event.payload.field == "payload.bet.stake.amount" and "100" in event.payload.reason
    assert event.payload.rule.startswith("seed 00")


@pytest.mark.parametrize("profile, rule", [
    ("BO", "seed 002 §1.2.1.1"), ("CL-ARICA", "seed 004 RG §4.2"),
    ("AR-RUL", "seed 001 «se procederá, una vez advertida la irregularidad, a devolverle el "
               "excedente»")])
def test_one_over_the_maximum_plays_the_maximum_and_the_excess_goes_back(profile, rule):
    event = place(opened(profile), 50_001)
    assert isinstance(event, BetPlaced)
    assert event.payload.bet.stake.amount == 50_000
    assert event.payload.excess_returned == Money(amount=1, currency=CURRENCY[profile])
    assert event.payload.limit_rule == rule


def test_one_over_the_maximum_is_refused_where_the_profile_rejects_it():
    event = place(opened("LIVE-GG"), 50_001)
    assert isinstance(event, BetRejected) and event.payload.code == "OVER_MAXIMUM"
    assert event.payload.rule == "seed 003 Rul §2.1.5" and "50000" in event.payload.reason


def test_an_over_maximum_bet_settles_on_the_maximum_only():
    table = opened("BO")
    place(table, 60_000)
    handle(table, cmd(CloseBets))
    events = handle(table, cmd(RecordSpin, payload=RecordSpinData(pocket="17")))
    settled = events[1].payload
    assert settled.stake.amount == 50_000 and settled.paid.amount == 50_000 * 36
    assert events[-1].payload.wagered.amount == 50_000


def test_limits_per_bet_kind_as_ar_sets_them_for_each_suerte_o_chance():
    table = opened("AR-RUL", bet_limits={"straight": BetLimits(min_bet=200, max_bet=1_000),
                                         "dozen": BetLimits(min_bet=100, max_bet=20_000)})
    under = place(table, 150, bet_id="u")
    assert under.payload.code == "UNDER_MINIMUM" and "straight" in under.payload.reason
    over = place(table, 1_500, bet_id="o")
    assert over.payload.bet.stake.amount == 1_000 and over.payload.excess_returned.amount == 500
    red = place(table, 50_000, kind="red", numbers=(), bet_id="r")   # the table's limits
    assert red.payload.excess_returned is None
    # «a caballo» on two dozens: up to twice the dozen maximum (seed 001)
    two = place(table, 40_000, kind="two_dozens", numbers=(), index=1, bet_id="c")
    assert two.payload.bet.stake.amount == 40_000 and two.payload.excess_returned is None


def test_per_kind_limits_must_name_a_bet_kind_of_the_game():
    table = TableSession(T)
    [refused] = handle(table, cmd(OpenTable, payload=TableOpenedData(
        game="roulette", variant="european", profile="AR-RUL", currency="ARS", min_bet=100,
        max_bet=50_000, bet_limits={"trio": BetLimits(min_bet=1, max_bet=2)})))
    assert isinstance(refused, CommandRejected)
    assert refused.payload.field == "payload.bet_limits.trio"


def test_limits_change_between_rounds_only():
    table = opened("BO")
    new = LimitsData(min_bet=500, max_bet=100_000)
    [refused] = handle(table, cmd(ChangeLimits, payload=new))
    assert isinstance(refused, CommandRejected) and "between rounds" in refused.payload.reason
    handle(table, cmd(CloseBets))
    handle(table, cmd(RecordSpin, payload=RecordSpinData(pocket="3")))
    [changed] = handle(table, cmd(ChangeLimits, payload=new))
    assert changed.event_type == "LimitsChanged" and table.cfg.max_bet == 100_000
    handle(table, cmd(OpenRound))
    assert place(table, 400).payload.code == "UNDER_MINIMUM"


# ----- seats (domain.md §7.4) -----------------------------------------------------------------

def test_with_seating_enforced_a_bet_needs_the_seated_player():
    table = opened("BO", seating="enforced", seats=6)
    empty = place(table, 1000, seat=2, bet_id="e")
    assert (empty.payload.code, empty.payload.field) == ("SEAT_EMPTY", "payload.seat")
    past = place(table, 1000, seat=7, bet_id="p")
    assert (past.payload.code, past.payload.field) == ("NO_SUCH_SEAT", "payload.seat")
    [seated] = handle(table, cmd(SeatPlayer, payload=SeatData(seat=2, player_id="P1")))
    assert isinstance(seated, PlayerSeated)
    other = place(table, 1000, seat=2, player="P9", bet_id="o")
    assert (other.payload.code, other.payload.field) == ("NOT_AT_SEAT", "payload.player_id")
    assert isinstance(place(table, 1000, seat=2, bet_id="ok"), BetPlaced)


def test_seat_commands_refuse_a_taken_seat_a_missing_seat_and_a_second_seat():
    table = opened("BO", seating="enforced", seats=6)
    handle(table, cmd(SeatPlayer, payload=SeatData(seat=1, player_id="P1")))
    cases = [(SeatData(seat=1, player_id="P2"), "SEAT_TAKEN", "payload.seat"),
             (SeatData(seat=9, player_id="P2"), "NO_SUCH_SEAT", "payload.seat"),
             (SeatData(seat=3, player_id="P1"), "ALREADY_SEATED", "payload.player_id")]
    for data, code, field in cases:
        [refused] = handle(table, cmd(SeatPlayer, payload=data))
        assert (refused.payload.code, refused.payload.field) == (code, field)
    [left] = handle(table, cmd(LeaveSeat, payload=SeatData(seat=1, player_id="P1")))
    assert isinstance(left, PlayerLeft) and left.payload.reason == "left"
    assert place(table, 1000).payload.code == "SEAT_EMPTY"


def test_roulette_keeps_a_seat_however_long_it_is_not_played():
    table = opened("BO", seating="enforced")
    handle(table, cmd(SeatPlayer, payload=SeatData(seat=1, player_id="P1")))
    for _ in range(6):
        events = _empty_round(table)
        assert not any(isinstance(e, PlayerLeft) for e in events)
    assert table.seated == {1: "P1"}


def test_a_seat_not_played_for_more_than_three_rounds_is_freed_where_the_seed_says_so(
        monkeypatch):
    rule = "seed 002 §2.1.6.3 «por más de tres pases consecutivos»"
    card_like = Roulette()
    card_like.seat_release_rule = rule
    monkeypatch.setitem(ADAPTERS, "roulette", card_like)
    table = opened("BO", seating="enforced")
    for seat, player in ((1, "P1"), (2, "P2")):
        handle(table, cmd(SeatPlayer, payload=SeatData(seat=seat, player_id=player)))
    for _ in range(1, 4):
        assert not any(isinstance(e, PlayerLeft) for e in _empty_round(table, playing=2))
    freed = [e for e in _empty_round(table, playing=2) if isinstance(e, PlayerLeft)]
    assert [(e.payload.seat, e.payload.reason, e.payload.rounds_not_played, e.payload.rule)
            for e in freed] == [(1, "not_playing", 4, rule)]
    assert table.seated == {2: "P2"}


def _empty_round(table, playing=None):
    if table.round.is_settled:
        handle(table, cmd(OpenRound))
    if playing is not None:
        handle(table, bet(1000, seat=playing, player=f"P{playing}",
                          bet_id=f"r{table.round.number}"))
    handle(table, cmd(CloseBets))
    return handle(table, cmd(RecordSpin, payload=RecordSpinData(pocket="5")))


# ----- who may do what (contracts/permissions.py) ---------------------------------------------

@pytest.mark.parametrize("role, command", [
    ("dealer", CloseTable), ("dealer", OpenTable), ("dealer", ChangeLimits),
    ("surveillance", PlaceBet), ("surveillance", CloseBets), ("finance", RecordSpin),
    ("cashier", OpenRound), ("count_team", SeatPlayer), ("system", CloseTable),
])
def test_a_role_not_allowed_is_refused_naming_the_role_and_the_command(role, command):
    table = opened("BO")
    payload = {OpenTable: table.config, PlaceBet: bet(1000).payload,
               RecordSpin: RecordSpinData(pocket="1"), ChangeLimits: LimitsData(min_bet=1,
                                                                                max_bet=2),
               SeatPlayer: SeatData(seat=1, player_id="P1")}.get(command)
    extra = {"payload": payload} if payload is not None else {}
    [refused] = handle(table, cmd(command, actor=Actor(employee_id="E1", role=role), **extra))
    assert isinstance(refused, CommandRejected) and refused.payload.code == "FORBIDDEN"
    assert refused.payload.field == "actor.role"
    assert role in refused.payload.reason and command.__name__ in refused.payload.reason


def test_a_command_without_an_actor_is_refused():
    table = opened("BO")
    [refused] = handle(table, CloseTable(target_id=T, issued_by="test"))
    assert refused.payload.code == "FORBIDDEN" and refused.payload.field == "actor"
    assert refused.payload.reason == "actor: a command must name the employee and role"
    assert not table.closed


@pytest.mark.parametrize("role", ["table_supervisor", "pit_manager"])
def test_supervisors_open_and_close_tables_and_may_do_what_a_dealer_does(role):
    boss = Actor(employee_id="S1", role=role)
    table = opened("BO")
    assert isinstance(handle(table, bet(1000).model_copy(update={"actor": boss}))[0], BetPlaced)
    handle(table, cmd(CloseBets, actor=boss))
    handle(table, cmd(RecordSpin, actor=boss, payload=RecordSpinData(pocket="2")))
    [closed] = handle(table, cmd(CloseTable, actor=boss))
    assert closed.event_type == "TableClosed"


def test_authorize_lets_surveillance_resolve_a_verification_and_nobody_else_on_the_floor():
    from contracts.vision import ResolveVerification, ResolveVerificationData

    def resolve(role):
        return ResolveVerification(
            target_id="chk-1", issued_by="t", actor=Actor(employee_id="E", role=role),
            payload=ResolveVerificationData(outcome="UPHELD", note="seen on CCTV"))
    assert authorize(resolve("surveillance")) is None
    for role in ("dealer", "table_supervisor", "pit_manager", "cashier", "finance"):
        refusal = authorize(resolve(role))
        assert refusal is not None
        field, reason = refusal
        assert field == "actor.role" and role in reason and "surveillance" in reason


# ----- games --------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["baccarat", "blackjack", "poker", "trente_quarante"])
def test_a_game_without_a_live_adapter_cannot_be_opened(game):
    table = TableSession(T)
    [refused] = handle(table, cmd(OpenTable, payload=TableOpenedData(
        game=game, profile="BO", currency="BOB", min_bet=100, max_bet=50_000)))
    assert isinstance(refused, CommandRejected) and refused.payload.field == "payload.game"
    assert refused.payload.reason.startswith(f"no live table adapter for {game} yet")
    assert refused.payload.code == "NO_TABLE_ADAPTER" and table.config is None


def test_cl_arica_opens_its_one_zero_american_wheel_where_00_is_no_result():
    table = opened("CL-ARICA", variant="american_single")
    place(table, 1000)
    handle(table, cmd(CloseBets))
    [refused] = handle(table, cmd(RecordSpin, payload=RecordSpinData(pocket="00")))
    assert refused.payload.field == "payload.pocket"
    events = handle(table, cmd(RecordSpin, payload=RecordSpinData(pocket="17")))
    assert events[0].payload.wheel == "american_single" and events[1].payload.paid.amount


def test_a_wheel_the_profile_does_not_play_is_refused_naming_the_variant():
    table = TableSession(T)
    [refused] = handle(table, cmd(OpenTable, payload=TableOpenedData(
        game="roulette", variant="american_single", profile="BO", currency="BOB",
        min_bet=100, max_bet=50_000)))
    assert refused.payload.field == "payload.variant" and "BO" in refused.payload.reason


def test_a_called_bet_is_limited_component_by_component_and_never_cut():
    table = opened("BO", min_bet=100, max_bet=1_000)
    ok = place(table, 9 * 500, kind="voisins", numbers=(), bet_id="v")  # street, corner: 1 000
    assert isinstance(ok, BetPlaced) and ok.payload.bet.stake.amount == 4_500
    over = place(table, 9 * 600, kind="voisins", numbers=(), bet_id="w")  # streets of 1 200
    assert over.payload.code == "OVER_MAXIMUM" and "street of 1200" in over.payload.reason
    under = place(table, 6 * 50, kind="tiers", numbers=(), bet_id="t")
    assert under.payload.code == "UNDER_MINIMUM" and "split of 50" in under.payload.reason
