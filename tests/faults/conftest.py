"""The fault suite's results, gathered over the session and written to RELIABILITY.md when
FAULTS_REPORT names a file (`make faults`)."""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults import report
from tests.faults.report import Result


@pytest.fixture(scope="session")
def fault_results() -> Iterator[list[Result]]:
    results: list[Result] = []
    started = report.now()
    yield results
    target = os.environ.get("FAULTS_REPORT")
    if target and results:
        command = os.environ.get("FAULTS_COMMAND") or " ".join(sys.argv)
        report.write(Path(target), results, command, started)
