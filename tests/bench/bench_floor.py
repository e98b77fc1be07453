"""End-to-end throughput and latency of the roulette slice, next to the raw broker in the same run.

Every service is its own OS process, as in production: the table service
(`casino service table`, one or two instances sharing the partitions through the consumer
group), the projector (`tests/bench/floor_projector.py`: the real projector, which also notes
when each batch's DuckDB transaction committed) and the simulator (`casino simulate`). Each
scenario gets a fresh embedded broker (Tansu, memory storage) and a fresh DuckDB file.

- **throughput**: the simulator sends TABLES x ROUNDS rounds as fast as it can; bets settled
  per second = settled bets / (commit time of the last batch holding a BetSettled − issued_at
  of the first PlaceBet).
- **latency**: LAT_TABLES tables x 1 round/s for LAT_SECONDS; per round, commit time of the
  batch holding its RoundSettled (its bets were committed by then) − the RecordSpin's issued_at
  (the simulator stamps it as it sends the round).
- **raw**: an aiokafka producer and consumer on the same broker in the same run.

`BENCH_PROFILE=1` also samples every process with py-spy during the throughput runs and writes
the per-process breakdown (tests/bench/profile.py) into the section.
"""
from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer

from contracts.topics import partition_counts
from deploy.local.admin import ensure_topics
from deploy.local.broker import EmbeddedBroker
from services.projections import store

REPO = Path(__file__).resolve().parents[2]
TABLES, ROUNDS = 12, int(os.environ.get("BENCH_ROUNDS", "120"))   # throughput runs
LAT_TABLES, LAT_RATE = 10, 1.0
LAT_SECONDS = int(os.environ.get("BENCH_LAT_SECONDS", "60"))
# Tansu holds a waiting fetch for about half of fetch_max_wait after a record came
# (../shared/broker.md); 100 ms is the documented setting for it (services/runtime/kafka_config.py)
FETCH_MAX_WAIT_MS = os.environ.get("KAFKA_FETCH_MAX_WAIT_MS", "100")
PROFILE = os.environ.get("BENCH_PROFILE", "") == "1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status(port: int) -> dict[str, Any] | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/status", timeout=2) as r:
            return json.load(r)
    except OSError:
        return None


def wait(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up waiting for {what} after {timeout} s")
        time.sleep(0.1)


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds a process has used so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def read_timings(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.endswith("}")]


@dataclass
class Floor:
    """The processes of one scenario."""

    bootstrap: str
    work: Path
    instances: int
    procs: dict[str, subprocess.Popen] = field(default_factory=dict)
    ports: dict[str, int] = field(default_factory=dict)
    spies: dict[str, subprocess.Popen] = field(default_factory=dict)

    broker_pid: int | None = None
    cpu: dict[str, float] = field(default_factory=dict)
    code: Path = REPO   # where the services' code comes from (an A/B run: another revision)

    @property
    def env(self) -> dict[str, str]:
        return {**os.environ, "CASINO_VAR_DIR": str(self.work), "PYTHONPATH": str(self.code),
                "KAFKA_FETCH_MAX_WAIT_MS": FETCH_MAX_WAIT_MS}

    def spawn(self, name: str, args: list[str]) -> subprocess.Popen:
        log = (self.work / f"{name}.out").open("w")
        proc = subprocess.Popen([sys.executable, "-m", *args], cwd=self.code, env=self.env,
                                stdout=log, stderr=subprocess.STDOUT)
        self.procs[name] = proc
        return proc

    def start(self, db: Path, timings: Path) -> None:
        for i in range(self.instances):
            port = self.ports[f"table-{i}"] = free_port()
            self.spawn(f"table-{i}", ["services.cli.main", "service", "table", "--bootstrap",
                                      self.bootstrap, "--status-port", str(port), "--log-file",
                                      str(self.work / f"table-{i}.log")])
        port = self.ports["projector"] = free_port()
        self.spawn("projector", ["tests.bench.floor_projector", "--bootstrap", self.bootstrap,
                                 "--db", str(db), "--timings", str(timings), "--status-port",
                                 str(port), "--log-file", str(self.work / "projector.log")])

        def ready() -> bool:
            for name, proc in self.procs.items():
                if proc.poll() is not None:
                    raise RuntimeError(f"{name} exited: {(self.work / f'{name}.out').read_text()}")
            found = [status(p) for p in self.ports.values()]
            states = [s for s in found if s is not None]
            if len(states) < len(found):
                return False
            owned = sorted(p for s in states for p in s.get("partitions", []))
            # every instance holds some partitions, and together all three, each once
            return owned == [0, 1, 2] and all(
                s.get("partitions") for n, s in zip(self.ports, states) if n.startswith("table"))
        wait(ready, 90, "the services to start and share the partitions")

    def simulate(self, tables: int, rounds: int, rate: float) -> subprocess.Popen:
        return self.spawn("simulator", ["services.cli.main", "simulate", "--bootstrap",
                                        self.bootstrap, "--tables", str(tables), "--rounds",
                                        str(rounds), "--rate", str(rate), "--seed", "11"])

    def note_cpu(self) -> None:
        """The CPU seconds each process has used so far (kept after it exits)."""
        pids = {n: p.pid for n, p in self.procs.items()}
        if self.broker_pid:
            pids["broker (tansu)"] = self.broker_pid
        for name, pid in pids.items():
            used = cpu_seconds(pid)
            if used is not None:
                self.cpu[name] = used

    def profile(self, out: Path) -> None:
        """Sample every running service with py-spy (collapsed stacks, one file each)."""
        for name, proc in self.procs.items():
            if name in self.spies:
                continue
            self.spies[name] = subprocess.Popen(
                ["py-spy", "record", "--pid", str(proc.pid), "--format", "raw", "--rate", "200",
                 "--output", str(out / f"{name}.txt"), "--nonblocking"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                env={**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"})

    def stop(self) -> None:
        for spy in self.spies.values():
            spy.send_signal(signal.SIGINT)
        for spy in self.spies.values():
            try:
                spy.wait(30)
            except subprocess.TimeoutExpired:
                spy.kill()
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def scenario(instances: int, *, tables: int, rounds: int, rate: float,
             profile_dir: Path | None = None, code: Path = REPO) -> dict[str, Any]:
    """One run on a fresh broker: start the services, play, wait for the last round in
    DuckDB, stop; figures from the projector's commit log and the DuckDB file."""
    with tempfile.TemporaryDirectory() as tmp, \
            EmbeddedBroker(Path(tmp) / "broker", durable=False) as broker:
        work = Path(tmp)
        ensure_topics(broker.bootstrap, partition_counts())
        db, timings = work / "floor.duckdb", work / "timings.jsonl"
        floor = Floor(broker.bootstrap, work, instances, code=code,
                      broker_pid=broker._tansu.pid if broker._tansu else None)
        try:
            floor.start(db, timings)
            floor.note_cpu()
            at_start, window = dict(floor.cpu), time.time()
            if profile_dir is not None:
                floor.profile(profile_dir)
            sim = floor.simulate(tables, rounds, rate)
            if profile_dir is not None:
                floor.profile(profile_dir)   # the simulator too
            total = tables * rounds
            def done() -> bool:
                floor.note_cpu()
                return sum(len(t["rounds"]) for t in read_timings(timings)) >= total or \
                    sim.poll() not in (None, 0)
            wait(done, 120 + total / max(rate * tables, 1) * 2,
                 "every round settled in DuckDB")
            if sim.returncode not in (None, 0):
                raise RuntimeError("simulator failed: " +
                                   (work / "simulator.out").read_text()[-2000:])
            stats = {n: status(p) or {} for n, p in floor.ports.items()}
            floor.note_cpu()
            cpu = {n: used - at_start.get(n, 0.0) for n, used in floor.cpu.items()}
            window = time.time() - window
        finally:
            floor.stop()
        batches = read_timings(timings)
        with store.connect(db, read_only=True) as con:
            (bets, settled, placed_first), = con.execute(
                "SELECT count(*), count(settled_at), min(placed_at) FROM bets").fetchall()
            (rounds_settled,), = con.execute(
                "SELECT count(*) FROM rounds WHERE settled_at IS NOT NULL").fetchall()
            (events,), = con.execute("SELECT count(*) FROM events").fetchall()
    assert settled == bets and rounds_settled == tables * rounds, (settled, bets, rounds_settled)
    first = min(b["first_placed"] for b in batches if b["first_placed"])
    last = max(b["committed"] for b in batches if b["settled"])
    series = sorted((at, b["committed"] - at) for b in batches for _rid, at in b["rounds"])
    latencies = sorted(lat for _at, lat in series)
    if profile_dir is not None:
        (profile_dir / "cpu.json").write_text(json.dumps({
            "cpu": cpu, "bets": settled,
            "title": f"{instances} table-service instance{'s' if instances > 1 else ''}"}))
    return {"instances": instances, "bets": settled, "rounds": rounds_settled, "events": events,
            "seconds": last - first, "bets_per_s": settled / (last - first),
            "batches": len(batches), "latencies": latencies, "series": series, "cpu": cpu,
            "window": window, "load": os.getloadavg()[0],
            "handled": {n: s.get("handled", 0) for n, s in stats.items()}}


def pct(values: list[float], p: float) -> float:
    return statistics.quantiles(values, n=1000, method="inclusive")[int(p * 10) - 1] \
        if len(values) > 1 else values[0]


async def raw(bootstrap: str, n: int = 50_000) -> dict[str, float]:
    value = b'{"k": "a small json value of about eighty bytes, like a compact event"}'
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, linger_ms=5, acks=1)
    await producer.start()
    start = time.perf_counter()
    futures = [await producer.send("bench.raw", value, key=str(i % 3).encode()) for i in range(n)]
    await asyncio.gather(*futures)
    produced = time.perf_counter() - start
    await producer.stop()
    consumer = AIOKafkaConsumer("bench.raw", bootstrap_servers=bootstrap,
                                auto_offset_reset="earliest", enable_auto_commit=False)
    await consumer.start()
    got, start = 0, time.perf_counter()
    while got < n:
        batch = await consumer.getmany(timeout_ms=1000, max_records=5000)
        got += sum(len(v) for v in batch.values())
    consumed = time.perf_counter() - start
    await consumer.stop()
    return {"produce": n / produced, "consume": n / consumed}


def raw_run() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp, \
            EmbeddedBroker(Path(tmp) / "broker", durable=False) as broker:
        ensure_topics(broker.bootstrap, {"bench.raw": 3})
        return asyncio.run(raw(broker.bootstrap))


def measure() -> dict[str, Any]:
    prof = Path(tempfile.mkdtemp(prefix="floor-profile-")) if PROFILE else None
    out: dict[str, Any] = {"raw": raw_run()}
    for n in (1, 2):
        out[f"x{n}"] = scenario(n, tables=TABLES, rounds=ROUNDS, rate=0)
    out["lat"] = scenario(1, tables=LAT_TABLES, rounds=int(LAT_SECONDS * LAT_RATE), rate=LAT_RATE)
    if prof is not None:   # separate runs: sampling slows the processes down
        for n in (1, 2):
            (prof / f"x{n}").mkdir()
            scenario(n, tables=TABLES, rounds=ROUNDS, rate=0, profile_dir=prof / f"x{n}")
    out["profile_dir"] = str(prof) if prof else None
    return out


def run() -> str:
    m = measure()
    r, lat = m["raw"], m["lat"]["latencies"]
    rows = []
    for key in ("x1", "x2"):
        s = m[key]
        rows.append(f"| {s['instances']} | {s['bets']:,} | {s['rounds']:,} | {s['events']:,} | "
                    f"{s['seconds']:.1f} | **{s['bets_per_s']:,.0f}** | "
                    f"{(s['events'] + s['bets']) / s['seconds']:,.0f} | "
                    f"{(s['events'] + s['bets']) / s['seconds'] / r['produce']:.1%} | "
                    f"{s['load']:.1f} |")
    cpu_rows = []
    for key in ("x1", "x2"):
        s = m[key]
        cores = sum(s["cpu"].values()) / s["window"]
        cpu_rows.append(f"| {s['instances']} | " + ", ".join(
            f"{name} {used:.1f} s ({used / s['bets'] * 1000:.2f} ms/bet)"
            for name, used in sorted(s["cpu"].items())) +
            f" | {sum(s['cpu'].values()) / s['bets'] * 1000:.2f} ms | {cores:.2f} of 2 |")
    profile = ""
    if m["profile_dir"]:
        from tests.bench.profile import summarize
        profile = "\n" + summarize(Path(m["profile_dir"]))
    return f"""Roulette slice end to end on the embedded broker (Tansu 0.6, memory storage). Every
service is its own OS process: table service (`casino service table`, one or two instances
sharing the 3 partitions through their consumer group), projector (the real one, wrapped by
`tests/bench/floor_projector.py` to note when each batch's DuckDB transaction committed),
simulator (`casino simulate`). A fresh broker and DuckDB file per scenario.
`KAFKA_FETCH_MAX_WAIT_MS={FETCH_MAX_WAIT_MS}` for every service (see services/runtime/kafka_config.py).

**Throughput**: {TABLES} tables x {ROUNDS} rounds (2–10 bets each, plus the simulator's late and
over-maximum bets, which are refused), simulator at full speed. Seconds = from the first
PlaceBet's `issued_at` to the commit of the DuckDB transaction holding the last BetSettled.
Messages/s counts commands in (≈ bets + 3 per round) and events out, i.e. events + bets; the
fraction compares it with the raw producer below. The load average (1 min, at the end of the
run) shows how busy the shared machine was: other work ran beside the benchmark.

| table-service instances | bets settled | rounds | table events | s | bets/s | messages/s | of raw producer | load average |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|
{chr(10).join(rows)}

CPU used by each process during the throughput runs (from /proc, from the moment the services
were ready until the last round was in DuckDB; the simulator's includes its start-up):

| instances | CPU per process | all processes, per bet | cores busy (mean) |
|---:|---|---:|---:|
{chr(10).join(cpu_rows)}

**Latency** at a steady {LAT_TABLES} tables x {LAT_RATE:g} round/s for {LAT_SECONDS} s, one
table-service instance: per round, the commit time of the projector's transaction holding its
RoundSettled (the round's BetSettled rows come before it in the partition, so they are
committed too) minus the RecordSpin's `issued_at` (the simulator builds and sends a round's
commands together, so that is when the result was sent; every event of the settlement carries
it as `occurred_at`). Wall clocks of processes on one machine.

| rounds | p50 | p90 | p95 | p99 | max | load average |
|---:|---:|---:|---:|---:|---:|---:|
| {len(lat):,} | {pct(lat, 50) * 1000:,.0f} ms | {pct(lat, 90) * 1000:,.0f} ms | {pct(lat, 95) * 1000:,.0f} ms | {pct(lat, 99) * 1000:,.0f} ms | {max(lat) * 1000:,.0f} ms | {m['lat']['load']:.1f} |

**Raw broker**, same run, fresh broker: aiokafka producer (linger 5 ms, acks=1, 80-byte values)
**{r['produce']:,.0f} msg/s**; aiokafka consumer **{r['consume']:,.0f} msg/s**.
{profile}
{NOTES}"""


NOTES = """
**Where the time goes** (profile tables above; 2026-11-25 runs). Every bet costs about 0.6–1 ms
of CPU in the table service, 0.6–1.1 ms in the projector, ~0.2 ms in Tansu and ~0.6 ms in the
simulator (more when the machine is loaded), so the two cores carry at most ~650–1,300
bets/s even with the machine to ourselves; the pipeline is bound by Python CPU per message,
not by the broker (the raw producer moves 20–40 times more messages).

- *Table service*: the domain and pydantic models it builds are the largest part. Per bet
  the rules engine runs twice: `settlement.bet_problem` validates each PlaceBet by settling it
  once against pocket "1" (`settle_bets` of a one-bet batch), then `settlement.settle` settles
  the round; `services/rules/roulette/settle.py` pays in `Fraction`s (`_money`, `Rounding.apply`:
  `Fraction.__new__`/`_mul` are the hottest leaves). `Aggregate.trigger` validates every event
  model (`BaseModel.__init__`, a uuid4 per event) and `TableSession.mutate` dispatches through
  `singledispatchmethod` (a WeakKeyDictionary lookup per call). Those files
  (services/table/domain.py, settlement.py, services/rules) belong to other work in progress
  and were not changed here.
- *Projector*: DuckDB is about half: the `events` INSERT (a JSON body and a primary-key index
  per event), the bets INSERT/UPDATE, the commit, and, every 5 s under load, closing the file
  (a checkpoint, ~0.2 s), stepping aside 0.2 s for readers and reopening it (~0.15 s).
  Decoding (pydantic) is ~10%, `model_dump_json` of each event's body ~5%.
- *Latency tail*: with the projector stepping aside every 5 s, rounds settled in that
  ~0.5 s wait for it: a diagnostic run (40 s, 10 tables x 1 round/s, `BENCH_MAX_HOLD=3600`
  for the projector wrapper, i.e. never stepping aside) removed the 5-second spikes (p95 462 →
  384 ms); what remained was bursts of a few seconds that came with the other load on the
  machine. p50 is ~80 ms: two Kafka hops at `fetch_max_wait_ms=100` on Tansu (~50 ms each).

**Changes, each measured A/B in one run** (`python -m tests.bench.bench_floor A B 2`:
the throughput scenario alternately with the services' code of two revisions, 12 tables x 60
rounds, one instance, mean of 2 each; CPU from /proc):

| change | bets/s B/A | CPU per bet A/B |
|---|---:|---:|
| projector: rounds buffered like bets (one INSERT + one UPDATE per batch instead of 4 statements per round), buffered rows handed to DuckDB as numpy columns | 2.74 (213 → 584) | projector 2.82 (3.11 → 1.10 ms) |
| codec: `model_validate_json` straight from the bytes (model found by a peek at type and version; full path on any doubt or error) | 0.94 (noise: 345 → 324) | table 1.19, projector 1.07; decode alone 40 → 20 µs a message |
| bus: publish straight to the aiokafka producer; subscribers skip FastStream's per-record message objects and JSON decoding; type names cached | 1.36 (377 → 514) | table 1.28, projector 1.21 |
| projector: 2,000 instead of 500 records per transaction (not kept) | 0.86 | 1.01 |
| **all of the above: 21f500d (before) → 85abd03** (load average 1.4) | **3.68 (342 → 1,260)** | projector 4.40, table 1.51, Tansu 1.55 |

Wall-clock figures on this shared machine move by 2x between runs (the load average column);
CPU per bet is the steadier measure.
"""


def checkout(revision: str, into: Path) -> Path:
    """The services' code of `revision` in `into` (with today's bench projector wrapper)."""
    into.mkdir()
    archive = subprocess.run(["git", "archive", revision], cwd=REPO, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    (into / "tests" / "bench" / "floor_projector.py").write_text(
        (REPO / "tests" / "bench" / "floor_projector.py").read_text())
    return into


def ab(a: str, b: str | None, repeats: int = 2, instances: int = 1) -> None:
    """A/B in one run: the throughput scenario with the services' code of revision `a` and of
    revision `b` (None: the working tree), alternately; bets/s and CPU ms per bet per process.
    `python -m tests.bench.bench_floor A [B|-] [REPEATS] [INSTANCES]`."""
    with tempfile.TemporaryDirectory() as tmp:
        codes = {"A": checkout(a, Path(tmp) / "a"),
                 "B": checkout(b, Path(tmp) / "b") if b else REPO}
        rates: dict[str, list[float]] = {"A": [], "B": []}
        cpu: dict[str, dict[str, list[float]]] = {"A": {}, "B": {}}
        for _ in range(repeats):
            for name, code in codes.items():
                s = scenario(instances, tables=TABLES, rounds=ROUNDS, rate=0, code=code)
                rates[name].append(s["bets_per_s"])
                for proc, used in s["cpu"].items():
                    cpu[name].setdefault(proc, []).append(used / s["bets"] * 1000)
                print(f"{name}: {s['bets_per_s']:,.0f} bets/s ({s['bets']} bets, "
                      f"{s['seconds']:.1f} s); CPU ms/bet " + ", ".join(
                          f"{p} {u / s['bets'] * 1000:.2f}" for p, u in sorted(s["cpu"].items())),
                      flush=True)
        ra, rb = statistics.mean(rates["A"]), statistics.mean(rates["B"])
        print(f"A = {a}, B = {b or 'working tree'}: bets/s A {ra:,.0f}  B {rb:,.0f}  "
              f"B/A = {rb / ra:.2f}")
        for proc in sorted(cpu["A"]):
            ca, cb = statistics.mean(cpu["A"][proc]), statistics.mean(cpu["B"].get(proc, [0]))
            print(f"  CPU ms/bet {proc}: A {ca:.2f}  B {cb:.2f}  A/B = {ca / cb:.2f}")


if __name__ == "__main__":
    args = sys.argv[1:]
    ab(args[0], None if len(args) < 2 or args[1] == "-" else args[1],
       int(args[2]) if len(args) > 2 else 2, int(args[3]) if len(args) > 3 else 1)
