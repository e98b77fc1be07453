"""The Kafka ACLs of deploy/acls.toml as kafka-acls.sh commands, for a production cluster.

    python -m deploy.acls [--bootstrap HOST:PORT] [--command-config FILE] > grant-acls.sh

Each principal is `User:<name>` (its SASL user). Topics read get Read and Describe, topics
written Write and Describe, consumer groups Read.
"""
from __future__ import annotations

import argparse
import tomllib
from dataclasses import dataclass
from pathlib import Path

ACL_FILE = Path(__file__).with_name("acls.toml")


@dataclass(frozen=True)
class Grant:
    principal: str
    consume: frozenset[str]
    groups: frozenset[str]
    read: frozenset[str]
    produce: frozenset[str]


def load(path: Path = ACL_FILE) -> dict[str, Grant]:
    with path.open("rb") as f:
        data = tomllib.load(f)
    return {name: Grant(name, *(frozenset(entry.get(k, ())) for k in
                                ("consume", "groups", "read", "produce")))
            for name, entry in data.items()}


def commands(grants: dict[str, Grant], bootstrap: str = "$KAFKA_BOOTSTRAP_SERVERS",
             command_config: str = "$KAFKA_ADMIN_CONFIG") -> list[str]:
    head = f"kafka-acls.sh --bootstrap-server {bootstrap} --command-config {command_config} --add"
    out = []
    for g in grants.values():
        who = f"--allow-principal User:{g.principal}"
        out += [f"{head} {who} --operation {op} --topic {t}"
                for t in sorted(g.consume | g.read) for op in ("Read", "Describe")]
        out += [f"{head} {who} --operation {op} --topic {t}"
                for t in sorted(g.produce) for op in ("Write", "Describe")]
        out += [f"{head} {who} --operation Read --group {grp}" for grp in sorted(g.groups)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap", default="$KAFKA_BOOTSTRAP_SERVERS")
    parser.add_argument("--command-config", default="$KAFKA_ADMIN_CONFIG")
    args = parser.parse_args()
    print("#!/bin/sh\nset -e")
    print("\n".join(commands(load(), args.bootstrap, args.command_config)))


if __name__ == "__main__":
    main()
