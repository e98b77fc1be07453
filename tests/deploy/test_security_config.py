"""TLS and SASL for a real cluster, from the environment (services/runtime/kafka_config.py):
what each client (FastStream broker, aiokafka reader, kafka-python admin/producer) is given,
and a clear error naming the variable for a wrong setting."""
from __future__ import annotations

import asyncio

import pytest
from faststream.kafka import KafkaBroker
from faststream.security import SASLOAuthBearer, SASLScram512

from services.runtime.kafka_config import KafkaConfigError, kafka_config

SCRAM = {"KAFKA_BOOTSTRAP_SERVERS": "k1:9093", "KAFKA_SECURITY_PROTOCOL": "SASL_SSL",
         "KAFKA_SASL_USERNAME": "table-service", "KAFKA_SASL_PASSWORD": "s3cret"}


def test_plaintext_by_default_adds_nothing():
    config = kafka_config({})
    assert config.security_options() == {} == config.aiokafka_options() == \
        config.broker_options()


def test_scram_over_tls_reaches_every_client():
    config = kafka_config(SCRAM)
    assert config.sasl_mechanism == "SCRAM-SHA-512"
    assert config.security_options() == {
        "security_protocol": "SASL_SSL", "sasl_mechanism": "SCRAM-SHA-512",
        "sasl_plain_username": "table-service", "sasl_plain_password": "s3cret"}
    reader = config.aiokafka_options()
    assert reader["sasl_mechanism"] == "SCRAM-SHA-512" and reader["ssl_context"] is not None
    security = config.broker_options()["security"]
    assert isinstance(security, SASLScram512) and security.use_ssl
    KafkaBroker("k1:9093", **config.broker_options())  # FastStream accepts it


def test_oauthbearer_reads_the_token_file_at_each_login(tmp_path):
    token = tmp_path / "token"
    token.write_text("first\n")
    config = kafka_config({"KAFKA_SECURITY_PROTOCOL": "SASL_PLAINTEXT",
                           "KAFKA_SASL_MECHANISM": "OAUTHBEARER",
                           "KAFKA_SASL_OAUTH_TOKEN_FILE": str(token)})
    options = config.broker_options()
    assert isinstance(options["security"], SASLOAuthBearer)
    provider = options["sasl_oauth_token_provider"]
    assert asyncio.run(provider.token()) == "first"
    token.write_text("refreshed")
    assert asyncio.run(provider.token()) == "refreshed"
    assert config.security_options()["sasl_oauth_token_provider"].token() == "refreshed"


def test_the_password_may_come_from_a_mounted_secret(tmp_path):
    (tmp_path / "pw").write_text("from-file\n")
    env = {k: v for k, v in SCRAM.items() if k != "KAFKA_SASL_PASSWORD"}
    config = kafka_config({**env, "KAFKA_SASL_PASSWORD_FILE": str(tmp_path / "pw")})
    assert config.sasl_password == "from-file"


@pytest.mark.parametrize("env,variable", [
    ({"KAFKA_SECURITY_PROTOCOL": "TLS"}, "KAFKA_SECURITY_PROTOCOL"),
    ({**SCRAM, "KAFKA_SASL_MECHANISM": "PLAIN"}, "KAFKA_SASL_MECHANISM"),
    ({**SCRAM, "KAFKA_SASL_USERNAME": ""}, "KAFKA_SASL_USERNAME"),
    ({k: v for k, v in SCRAM.items() if k != "KAFKA_SASL_PASSWORD"}, "KAFKA_SASL_PASSWORD"),
    ({"KAFKA_SECURITY_PROTOCOL": "SASL_SSL", "KAFKA_SASL_MECHANISM": "OAUTHBEARER"},
     "KAFKA_SASL_OAUTH_TOKEN_FILE"),
    ({"KAFKA_SECURITY_PROTOCOL": "SSL", "KAFKA_SSL_CAFILE": "/nonexistent/ca.pem"},
     "KAFKA_SSL_CAFILE"),
])
def test_a_wrong_setting_names_its_variable(env, variable):
    with pytest.raises(KafkaConfigError) as err:
        kafka_config(env)
    assert err.value.name == variable
