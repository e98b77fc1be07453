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
    from services.table.app import TableService
    from services.vision.service.app import VisionService
    from services.runtime.evidence import EvidenceStore

    settings = Settings(bootstrap="kafka:9092")
    table = TableService(Bus(settings, "table-service"))
    projector = ProjectorService(Bus(settings, "projector"), Path("unused.duckdb"))
    vision = VisionService(Bus(settings, "vision-service"), EvidenceStore(Path("unused")))
    return [table.bus.broker, projector.bus.broker, vision.bus.broker,
            simulator_bus(settings).broker]
