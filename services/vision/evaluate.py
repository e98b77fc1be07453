"""Score readers on a labelled set: accuracy, wrong decisions, per-nuisance breakdown, and a
contact sheet of the mistakes for a person to look at.

The two error kinds are kept apart because they cost differently: a *wrong decision* (a value
or pocket that is not the truth, or any decision on a frame that should get none) pays the
wrong bets; a *miss* (no decision on a readable frame) costs a person's glance — the dealer's
call stands and CCTV review remains possible within the 30-minute hold (seed 002 §1.3).
"""
from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from services.vision.reading import result_json

Reader = Callable[[np.ndarray, dict[str, Any]], Any]  # (image, label) -> a reading


@dataclass(frozen=True)
class Outcome:
    file: str
    label: dict[str, Any]
    result: dict[str, Any]   # result_json(...) of the reading
    ms: float

    @property
    def verdict(self) -> str:
        """'correct', 'wrong' (a wrong value/pocket), 'missed' (no decision on a readable
        frame), 'held' (no decision, as it should), 'decided' (decision on a no-decision
        frame)."""
        decided = not self.result.get("no_decision")
        if self.label.get("no_decision"):
            return "decided" if decided else "held"
        if not decided:
            return "missed"
        return "correct" if _truth(self.label) == _answer(self.result) else "wrong"


def _truth(label: dict[str, Any]) -> Any:
    return sorted(label["values"]) if label.get("kind") == "dice" else str(label["pocket"])


def _answer(result: dict[str, Any]) -> Any:
    return sorted(result["values"]) if "values" in result else str(result.get("pocket"))


def run(items: Iterable[tuple[str, np.ndarray, dict[str, Any]]], reader: Reader,
        progress: Callable[[int], None] = lambda _: None) -> Iterator[Outcome]:
    """Read every (file, image, label) and time each reading."""
    for file, image, label in items:
        start = time.perf_counter()
        reading = reader(image, label)
        ms = (time.perf_counter() - start) * 1000
        progress(1)
        yield Outcome(file, label, result_json(reading), ms)


@dataclass
class Report:
    n: int = 0
    verdicts: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    reasons: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(
        lambda: defaultdict(int)))          # label reason -> reader's answer -> count
    by_nuisance: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(
        lambda: defaultdict(int)))
    latencies_ms: list[float] = field(default_factory=list)

    @property
    def readable(self) -> int:
        v = self.verdicts
        return v["correct"] + v["wrong"] + v["missed"]

    @property
    def no_decision_frames(self) -> int:
        return self.verdicts["held"] + self.verdicts["decided"]

    def accuracy(self) -> float:
        return self.verdicts["correct"] / self.readable if self.readable else float("nan")

    def decided_rate(self) -> float:
        n = self.no_decision_frames
        return self.verdicts["decided"] / n if n else float("nan")

    def percentile(self, q: float) -> float:
        return float(np.percentile(self.latencies_ms, q)) if self.latencies_ms else float("nan")

    def to_json(self) -> dict[str, Any]:
        return {"frames": self.n, "readable": self.readable,
                "no_decision_frames": self.no_decision_frames,
                "verdicts": dict(self.verdicts), "accuracy": round(self.accuracy(), 5),
                "decided_on_no_decision_rate": round(self.decided_rate(), 5),
                "reasons": {k: dict(v) for k, v in self.reasons.items()},
                "by_nuisance": {k: dict(v) for k, v in self.by_nuisance.items()},
                "latency_ms": {f"p{q}": round(self.percentile(q), 2) for q in (50, 95, 99)}}


def score(outcomes: Iterable[Outcome]) -> Report:
    report = Report()
    for o in outcomes:
        verdict = o.verdict
        report.n += 1
        report.verdicts[verdict] += 1
        report.latencies_ms.append(o.ms)
        if o.label.get("no_decision"):
            answer = o.result.get("reason") if o.result.get("no_decision") else "DECIDED"
            report.reasons[str(o.label.get("reason"))][str(answer)] += 1
        for name in o.label.get("nuisances", []) or ["(none)"]:
            report.by_nuisance[name][verdict] += 1
    return report


def markdown(report: Report) -> str:
    """The report as Markdown tables (used by the CLI and the benchmark)."""
    v = report.verdicts
    lines = [
        "| frames | readable | read correctly | accuracy | missed (no decision) | wrong value |"
        " no-decision frames | given a decision | rate |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {report.n} | {report.readable} | {v['correct']} | {report.accuracy():.2%} |"
        f" {v['missed']} | {v['wrong']} | {report.no_decision_frames} | {v['decided']} |"
        f" {report.decided_rate():.2%} |", "",
        "| nuisance | readable frames | accuracy | no-decision frames | given a decision |",
        "|---|---:|---:|---:|---:|"]
    for name in sorted(report.by_nuisance):
        c = report.by_nuisance[name]
        readable = c["correct"] + c["wrong"] + c["missed"]
        nd = c["held"] + c["decided"]
        acc = f"{c['correct'] / readable:.2%}" if readable else "-"
        lines.append(f"| {name} | {readable} | {acc} | {nd} | {c['decided']} |")
    lines += ["", "| true reason | reader's answers |", "|---|---|"]
    for reason in sorted(report.reasons):
        answers = ", ".join(f"{k} {n}" for k, n in sorted(report.reasons[reason].items()))
        lines.append(f"| {reason} | {answers} |")
    return "\n".join(lines)


def contact_sheet(tiles: list[tuple[np.ndarray, str]], path: str | Path, cols: int = 4,
                  tile_w: int = 320) -> Path | None:
    """A grid of captioned thumbnails (PNG). None if there is nothing to show."""
    if not tiles:
        return None
    thumbs = []
    for image, caption in tiles:
        h, w = image.shape[:2]
        t = cv2.resize(image, (tile_w, int(h * tile_w / w)), interpolation=cv2.INTER_AREA)
        bar = np.zeros((36, tile_w, 3), np.uint8)
        for k, line in enumerate(_wrap(caption, 52)[:2]):
            cv2.putText(bar, line, (4, 14 + 16 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.38,
                        (255, 255, 255), 1, cv2.LINE_AA)
        thumbs.append(np.vstack([t, bar]))
    th = max(t.shape[0] for t in thumbs)
    thumbs = [np.pad(t, ((0, th - t.shape[0]), (0, 0), (0, 0))) for t in thumbs]
    while len(thumbs) % cols:
        thumbs.append(np.zeros_like(thumbs[0]))
    rows = [np.hstack(thumbs[i:i + cols]) for i in range(0, len(thumbs), cols)]
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(out), np.vstack(rows)):
        raise OSError(f"cannot write {out}")
    return out


def _wrap(text: str, width: int) -> list[str]:
    return [text[i:i + width] for i in range(0, len(text), width)] or [""]


def caption(o: Outcome) -> str:
    truth = o.label.get("reason") if o.label.get("no_decision") else _truth(o.label)
    said = o.result.get("reason") if o.result.get("no_decision") else _answer(o.result)
    return f"{Path(o.file).name} {o.verdict}: truth {truth}, read {said}; " \
           f"{','.join(o.label.get('nuisances', []))}"


def worst_first(outcomes: list[Outcome]) -> list[Outcome]:
    """Mistakes, the costly ones first: wrong values and decisions, then misses."""
    order = {"wrong": 0, "decided": 1, "missed": 2}
    bad = [o for o in outcomes if o.verdict in order]
    return sorted(bad, key=lambda o: (order[o.verdict], -float(o.result.get("confidence", 0))))
