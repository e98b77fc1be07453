"""Every service's FastStream broker, wired but not connected: used to generate the AsyncAPI
document. A new service adds itself here."""
from __future__ import annotations

from pathlib import Path

from faststream.kafka import KafkaBroker

from services.runtime.bus import Bus
from services.runtime.settings import Settings


def service_brokers() -> list[KafkaBroker]:
    from services.projections.app import ProjectorService
    from services.simulator.app import simulator_bus
    from services.table import bootstrap as table
    from services.vision.service import bootstrap as vision

    settings = Settings(bootstrap="kafka:9092")
    projector = ProjectorService(Bus(settings, "projector"), Path("unused.duckdb"))
    return [table.build(settings).bus.broker, projector.bus.broker,
            vision.build(settings, Path("unused")).bus.broker, simulator_bus(settings).broker]
