"""The committed event catalogue (docs/contracts/) must match the code."""
import json

from services import catalogue as export


def test_committed_export_is_not_stale():
    problems = export.stale()
    assert problems == [], f"run `casino contracts export`; stale: {problems}"


def test_export_covers_every_message_and_topic(tmp_path):
    written = export.export(tmp_path)
    names = {p.name for p in written}
    assert "PlaceBet.v1.schema.json" in names and "DeadLetter.v1.schema.json" in names
    doc = json.loads((tmp_path / "asyncapi.json").read_text())
    assert doc["asyncapi"].startswith("3.")
    channels = " ".join(doc["channels"])
    assert "floor.table.commands" in channels and "floor.table.events" in channels
    schema = json.loads((tmp_path / "schemas" / "BetSettled.v1.schema.json").read_text())
    assert "rule" in json.dumps(schema)


def test_stale_detects_a_hand_edit(tmp_path):
    export.export(tmp_path)
    path = tmp_path / "schemas" / "PlaceBet.v1.schema.json"
    path.write_text(path.read_text().replace("bet_id", "betId"))
    assert "schemas/PlaceBet.v1.schema.json" in export.stale(tmp_path)
