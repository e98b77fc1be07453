"""Which Kafka to use and how to produce to it, from the environment.

The same code runs on the embedded Tansu broker and on a production Kafka cluster; only these
differ:

KAFKA_BOOTSTRAP_SERVERS   host:port[,host:port]. When set, that cluster is used and the embedded
                          broker is not started. Unset: start the embedded broker.
KAFKA_ACKS                producer acks: 0, 1 or all (default: all).
KAFKA_ENABLE_IDEMPOTENCE  1 turns the idempotent producer on (default 0: Tansu 0.6 fails
                          InitProducerId; production clusters should set 1).
KAFKA_FETCH_MAX_WAIT_MS   consumer fetch_max_wait_ms (default 500, the clients' default). Tansu
                          often holds a waiting fetch for about half of it after a record came,
                          so 100 cuts a hop's latency on Tansu to ~50 ms (at 10, durable
                          replay stalled). Real Kafka answers at once: keep 500 there.

Security, for a real cluster (issue 12; the embedded broker needs none of it):

KAFKA_SECURITY_PROTOCOL   PLAINTEXT (default), SSL, SASL_PLAINTEXT or SASL_SSL.
KAFKA_SASL_MECHANISM      SCRAM-SHA-512 (default with SASL), SCRAM-SHA-256 or OAUTHBEARER.
KAFKA_SASL_USERNAME       SCRAM: the service's principal (deploy/acls.toml names each one).
KAFKA_SASL_PASSWORD       SCRAM: its password; or KAFKA_SASL_PASSWORD_FILE, a file holding it
                          (a mounted secret).
KAFKA_SASL_OAUTH_TOKEN_FILE  OAUTHBEARER: a file holding the bearer token, read again at every
                          login, so a sidecar can refresh it.
KAFKA_SSL_CAFILE          TLS: the CA bundle that signed the brokers' certificates (default:
                          the system's).
KAFKA_SSL_CERTFILE, KAFKA_SSL_KEYFILE  TLS client certificate and key (mutual TLS), optional.
"""
from __future__ import annotations

import os
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Acks = int | str          # 0, 1 or "all" — the spelling both aiokafka and kafka-python accept
_ACKS: dict[str, Acks] = {"0": 0, "1": 1, "all": "all", "-1": "all"}
_BOOL = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False, "": False}


PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
MECHANISMS = ("SCRAM-SHA-512", "SCRAM-SHA-256", "OAUTHBEARER")


class KafkaConfigError(ValueError):
    """A Kafka setting in the environment is invalid; names the variable and the reason."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name}: {reason}")
        self.name, self.reason = name, reason


@dataclass(frozen=True)
class KafkaConfig:
    bootstrap: str | None             # None: start the embedded broker
    acks: Acks = "all"
    enable_idempotence: bool = False
    fetch_max_wait_ms: int = 500
    security_protocol: str = "PLAINTEXT"
    sasl_mechanism: str | None = None
    sasl_username: str | None = None
    sasl_password: str | None = None
    oauth_token_file: str | None = None
    ssl_cafile: str | None = None
    ssl_certfile: str | None = None
    ssl_keyfile: str | None = None

    @property
    def uses_ssl(self) -> bool:
        return self.security_protocol in ("SSL", "SASL_SSL")

    def ssl_context(self) -> ssl.SSLContext | None:
        if not self.uses_ssl:
            return None
        context = ssl.create_default_context(cafile=self.ssl_cafile)
        if self.ssl_certfile:
            context.load_cert_chain(self.ssl_certfile, self.ssl_keyfile)
        return context

    def security_options(self) -> dict[str, Any]:
        """Keyword arguments for kafka-python's clients (producer, consumer, admin)."""
        if self.security_protocol == "PLAINTEXT":
            return {}
        out: dict[str, Any] = {"security_protocol": self.security_protocol}
        if self.uses_ssl:
            out |= {k: v for k, v in (("ssl_cafile", self.ssl_cafile),
                                      ("ssl_certfile", self.ssl_certfile),
                                      ("ssl_keyfile", self.ssl_keyfile)) if v}
        if self.sasl_mechanism is not None:
            out["sasl_mechanism"] = self.sasl_mechanism
            if self.sasl_mechanism == "OAUTHBEARER":
                out["sasl_oauth_token_provider"] = _kafka_python_token(self.oauth_token_file)
            else:
                out |= {"sasl_plain_username": self.sasl_username,
                        "sasl_plain_password": self.sasl_password}
        return out

    def aiokafka_options(self) -> dict[str, Any]:
        """Keyword arguments for aiokafka's clients (the runtime's log reader)."""
        if self.security_protocol == "PLAINTEXT":
            return {}
        out: dict[str, Any] = {"security_protocol": self.security_protocol,
                               "ssl_context": self.ssl_context()}
        if self.sasl_mechanism is not None:
            out["sasl_mechanism"] = self.sasl_mechanism
            if self.sasl_mechanism == "OAUTHBEARER":
                out["sasl_oauth_token_provider"] = _aiokafka_token(self.oauth_token_file)
            else:
                out |= {"sasl_plain_username": self.sasl_username,
                        "sasl_plain_password": self.sasl_password}
        return out

    def broker_options(self) -> dict[str, Any]:
        """Keyword arguments for FastStream's KafkaBroker (its `security` object)."""
        if self.security_protocol == "PLAINTEXT":
            return {}
        from faststream.security import (
            BaseSecurity,
            SASLOAuthBearer,
            SASLScram256,
            SASLScram512,
        )
        context, tls = self.ssl_context(), self.uses_ssl
        if self.sasl_mechanism is None:
            return {"security": BaseSecurity(ssl_context=context, use_ssl=tls)}
        if self.sasl_mechanism == "OAUTHBEARER":
            return {"security": SASLOAuthBearer(ssl_context=context, use_ssl=tls),
                    "sasl_oauth_token_provider": _aiokafka_token(self.oauth_token_file)}
        scram = SASLScram512 if self.sasl_mechanism == "SCRAM-SHA-512" else SASLScram256
        return {"security": scram(str(self.sasl_username), str(self.sasl_password),
                                  ssl_context=context, use_ssl=tls)}

    @property
    def external(self) -> bool:
        """True when an external cluster is configured (do not start the embedded broker)."""
        return self.bootstrap is not None

    def producer_options(self) -> dict[str, Any]:
        """Keyword arguments for AIOKafkaProducer and kafka-python's KafkaProducer alike.
        Both are always given: kafka-python 3 would otherwise default idempotence to on."""
        return {"acks": self.acks, "enable_idempotence": self.enable_idempotence}

    def consumer_options(self) -> dict[str, Any]:
        """Keyword arguments for AIOKafkaConsumer and kafka-python's KafkaConsumer alike."""
        return {"fetch_max_wait_ms": self.fetch_max_wait_ms}


def kafka_config(env: Mapping[str, str] | None = None) -> KafkaConfig:
    """Read the Kafka settings from `env` (default: os.environ); raise KafkaConfigError."""
    env = os.environ if env is None else env
    bootstrap = env.get("KAFKA_BOOTSTRAP_SERVERS", "").strip() or None
    acks_text = env.get("KAFKA_ACKS", "all").strip().lower()
    if acks_text not in _ACKS:
        raise KafkaConfigError("KAFKA_ACKS", f"must be 0, 1 or all, not {acks_text!r}")
    idem_text = env.get("KAFKA_ENABLE_IDEMPOTENCE", "0").strip().lower()
    if idem_text not in _BOOL:
        raise KafkaConfigError("KAFKA_ENABLE_IDEMPOTENCE", f"must be 1 or 0, not {idem_text!r}")
    acks, idempotence = _ACKS[acks_text], _BOOL[idem_text]
    if idempotence and acks != "all":
        # Kafka clients refuse this combination; say so before a producer is built.
        raise KafkaConfigError("KAFKA_ACKS", "must be all when KAFKA_ENABLE_IDEMPOTENCE=1")
    wait_text = env.get("KAFKA_FETCH_MAX_WAIT_MS", "500").strip()
    if not wait_text.isdigit() or not 1 <= int(wait_text) <= 60_000:
        raise KafkaConfigError("KAFKA_FETCH_MAX_WAIT_MS",
                               f"must be whole milliseconds from 1 to 60000, not {wait_text!r}")
    return KafkaConfig(bootstrap, acks, idempotence, int(wait_text), **_security(env))


def _security(env: Mapping[str, str]) -> dict[str, Any]:
    """The TLS and SASL settings; KafkaConfigError names the variable that is wrong."""
    protocol = env.get("KAFKA_SECURITY_PROTOCOL", "PLAINTEXT").strip().upper() or "PLAINTEXT"
    if protocol not in PROTOCOLS:
        raise KafkaConfigError("KAFKA_SECURITY_PROTOCOL",
                               f"must be one of {', '.join(PROTOCOLS)}, not {protocol!r}")
    out: dict[str, Any] = {"security_protocol": protocol}
    for name, key in (("KAFKA_SSL_CAFILE", "ssl_cafile"), ("KAFKA_SSL_CERTFILE", "ssl_certfile"),
                      ("KAFKA_SSL_KEYFILE", "ssl_keyfile")):
        value = env.get(name, "").strip() or None
        if value is not None and not Path(value).is_file():
            raise KafkaConfigError(name, f"no such file: {value}")
        out[key] = value
    if not protocol.startswith("SASL_"):
        return out
    mechanism = env.get("KAFKA_SASL_MECHANISM", "SCRAM-SHA-512").strip().upper()
    if mechanism not in MECHANISMS:
        raise KafkaConfigError("KAFKA_SASL_MECHANISM",
                               f"must be one of {', '.join(MECHANISMS)}, not {mechanism!r}")
    out["sasl_mechanism"] = mechanism
    if mechanism == "OAUTHBEARER":
        token = env.get("KAFKA_SASL_OAUTH_TOKEN_FILE", "").strip()
        if not token:
            raise KafkaConfigError("KAFKA_SASL_OAUTH_TOKEN_FILE",
                                   "required with KAFKA_SASL_MECHANISM=OAUTHBEARER")
        return out | {"oauth_token_file": token}
    user = env.get("KAFKA_SASL_USERNAME", "").strip()
    if not user:
        raise KafkaConfigError("KAFKA_SASL_USERNAME", f"required with {mechanism}")
    password = env.get("KAFKA_SASL_PASSWORD")
    secret = env.get("KAFKA_SASL_PASSWORD_FILE", "").strip()
    if password is None and secret:
        try:
            password = Path(secret).read_text().strip()
        except OSError as err:
            raise KafkaConfigError("KAFKA_SASL_PASSWORD_FILE", str(err)) from None
    if not password:
        raise KafkaConfigError("KAFKA_SASL_PASSWORD", f"required with {mechanism} (or "
                               "KAFKA_SASL_PASSWORD_FILE)")
    return out | {"sasl_username": user, "sasl_password": password}


def _read_token(path: str | None) -> str:
    return Path(str(path)).read_text().strip()


def _aiokafka_token(path: str | None) -> Any:
    from aiokafka.abc import AbstractTokenProvider

    class FileToken(AbstractTokenProvider):
        async def token(self) -> str:
            return _read_token(path)
    return FileToken()


def _kafka_python_token(path: str | None) -> Any:
    from kafka.net.sasl.oauth import AbstractTokenProvider

    class FileToken(AbstractTokenProvider):
        def token(self) -> str:
            return _read_token(path)
    return FileToken()
