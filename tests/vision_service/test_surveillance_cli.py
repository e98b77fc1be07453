"""`casino surveillance resolve`: its options, and that it fails loudly (end to end in
tests/e2e/test_vision_checks.py)."""
from click.testing import CliRunner

from deploy.local.broker import free_port
from services.cli.main import casino


def run(*args: str):
    return CliRunner().invoke(casino, ["surveillance", "resolve", *args])


def test_help_names_every_option():
    res = run("--help")
    assert res.exit_code == 0
    for option in ("ROUND_CHECK_ID", "--upheld", "--corrected RESULT", "--by NAME", "--note",
                   "--bootstrap HOST:PORT"):
        assert option in res.output


def test_exactly_one_outcome_and_valid_values_or_a_usage_error():
    assert "exactly one of --upheld or --corrected" in run("c-1", "--by", "S1").output
    both = run("c-1", "--by", "S1", "--upheld", "--corrected", "4")
    assert both.exit_code == 2 and "exactly one" in both.output
    bad = run("c-1", "--by", "S1", "--corrected", "37")
    assert bad.exit_code == 2 and "--corrected" in bad.output and "result" in bad.output
    name = run("c-1", "--by", "Ana Perez", "--upheld")
    assert name.exit_code == 2 and "--by" in name.output


def test_an_unreachable_broker_fails_the_command():
    port = free_port()
    res = run("c-1", "--upheld", "--by", "S1", "--bootstrap", f"127.0.0.1:{port}")
    assert res.exit_code == 1
    assert f"could not send to Kafka at 127.0.0.1:{port}" in res.output
