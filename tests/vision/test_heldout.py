"""The held-out evaluation set must not change silently (its figures are in BENCHMARKS.md)."""
import json
from pathlib import Path

import pytest

from services.scenes import dataset as D

COMMITTED = json.loads((Path(__file__).parent / "data" / "heldout_dice.json").read_text())


def test_spec_matches_the_committed_manifest():
    spec = D.HELDOUT["dice"]
    assert {k: COMMITTED[k] for k in spec.to_json()} == spec.to_json()
    assert len(COMMITTED["sha256"]) == spec.n and spec.seed in D.RESERVED_SEEDS


def test_a_sample_of_heldout_frames_is_bit_identical():
    # Every 50th frame (20 frames, ~2 s); the benchmark checks all of them before scoring.
    indices = list(range(0, D.HELDOUT["dice"].n, 50))
    assert D.heldout_hashes("dice", indices) == [COMMITTED["sha256"][i] for i in indices], \
        "held-out frames changed: regenerate tests/vision/data/heldout_dice.json on purpose"


def test_reserved_seeds_refused_for_tuning_sets(tmp_path):
    from click.testing import CliRunner

    from services.cli.vision import vision
    res = CliRunner().invoke(vision, ["synth", str(tmp_path), "--kind", "dice", "-n", "1",
                                      "--seed", str(D.HELDOUT["dice"].seed)])
    assert res.exit_code == 2 and "reserved" in res.output


def test_bad_spec_names_the_field():
    with pytest.raises(ValueError, match="no_decision_rate"):
        D.SetSpec("dice", 1, 1, no_decision_rate=2.0)
