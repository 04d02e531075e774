"""A tenant's model is reached only at addresses the model policy allows, checked on every
connection: a name that answers an allowed address at registration and a refused one later
(DNS rebinding) is refused on the later connection, before anything is sent.

Every address here is on 127.0.0.0/8: the policies allow 127.0.0.1 (or 127.0.0.2) only, so
another loopback address stands for the private one a rebinding name would turn to. Names under
`.test` are answered by the scripted resolver of tests/media/test_fetch_dns.py.
"""

import asyncio
import ipaddress
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from app.judges import JudgeClient, JudgeEndpoint, JudgeError
from app.media.netguard import AddressPolicy
from tests.fixtures.api import side_app
from tests.fixtures.dns import Resolver
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.media.certs import Authority, server_context
from tests.media.loopback import LoopbackServer, Route
from tests.media.test_policies import COMPLETION

ONLY_127_0_0_1 = AddressPolicy(
    networks=(ipaddress.ip_network("127.0.0.1/32"),), setting="LOUPE_MODEL_ALLOW"
)


class Answer(BaseModel):
    verdict: str


@pytest.fixture
def model_server() -> Iterator[LoopbackServer]:
    # HTTP/1.0: every request comes on a connection of its own, so each one is resolved anew.
    with LoopbackServer(hosts=("127.0.0.1", "127.0.0.2")) as server:
        server.routes["/v1/chat/completions"] = Route(
            body=COMPLETION, content_type="application/json"
        )
        yield server


def endpoint(base_url: str, policy: AddressPolicy | None, **values: Any) -> JudgeEndpoint:
    fields: dict[str, Any] = {
        "api_key": "k",
        "default_model": "m",
        "max_attempts": 3,
        "timeout_seconds": 5,
        "backoff_base_seconds": 0.01,
        "backoff_cap_seconds": 0.02,
        **values,
    }
    return JudgeEndpoint(base_url=base_url, address_policy=policy, **fields)


def ask(endpoint: JudgeEndpoint, times: int = 1) -> list[str | JudgeError]:
    """Each call's verdict, or its error, made in turn on one client."""

    async def go() -> list[str | JudgeError]:
        client = JudgeClient(endpoint)
        outcomes: list[str | JudgeError] = []
        try:
            for _ in range(times):
                try:
                    reply = await client.call([{"role": "user", "content": "?"}], Answer)
                    outcomes.append(reply.data["verdict"])
                except JudgeError as error:
                    outcomes.append(error)
        finally:
            await client.close()
        return outcomes

    return asyncio.run(go())


class TestEveryConnection:
    def test_a_name_that_turns_to_a_refused_address_is_refused_on_the_later_connection(
        self, resolver: Resolver, model_server: LoopbackServer
    ) -> None:
        resolver.answers["rebind.test"] = ["127.0.0.1", "127.0.0.2"]
        url = model_server.url("/v1", "rebind.test")
        first, second = ask(endpoint(url, ONLY_127_0_0_1), times=2)
        assert first == "yes"
        assert isinstance(second, JudgeError)
        assert second.type == "judge_blocked" and second.kind == "blocked"
        assert second.message == (
            f"the judge endpoint rebind.test:{model_server.port} is not allowed by the model "
            "policy: rebind.test resolves to a loopback address; Loupe only connects to public "
            "addresses unless the operator allows the host or its range (LOUPE_MODEL_ALLOW)"
        )
        assert second.usage.calls == 0
        # Refused once, not retried: the policy's verdict on an address does not change.
        assert resolver.lookups == ["rebind.test", "rebind.test"]
        assert model_server.served_on == ["127.0.0.1"]

    def test_every_answer_of_a_lookup_must_be_allowed(
        self, resolver: Resolver, model_server: LoopbackServer
    ) -> None:
        resolver.answers["split.test"] = ["127.0.0.2"]
        [refused] = ask(endpoint(model_server.url("/v1", "split.test"), ONLY_127_0_0_1))
        assert isinstance(refused, JudgeError) and refused.type == "judge_blocked"
        assert model_server.hits == []

    @pytest.mark.parametrize("host", ["127.0.0.1", "127.1", "[::ffff:127.0.0.1]"])
    def test_an_ip_literal_is_checked_too(self, host: str, model_server: LoopbackServer) -> None:
        [refused] = ask(endpoint(model_server.url("/v1", host), AddressPolicy()))
        assert isinstance(refused, JudgeError)
        assert refused.type == "judge_blocked", refused.message
        assert "is a loopback address" in refused.message
        assert model_server.hits == []

    def test_an_allowed_literal_is_reached(self, model_server: LoopbackServer) -> None:
        assert ask(endpoint(model_server.url("/v1"), ONLY_127_0_0_1)) == ["yes"]

    def test_the_operators_judge_may_be_on_any_address(self, model_server: LoopbackServer) -> None:
        # No policy: the operator's own endpoint (LOUPE_JUDGE_*), here on a loopback address.
        assert ask(endpoint(model_server.url("/v1", "127.0.0.2"), None)) == ["yes"]
        assert model_server.served_on == ["127.0.0.2"]

    def test_a_name_that_does_not_resolve_is_still_a_dns_failure(self, resolver: Resolver) -> None:
        [failed] = ask(endpoint("http://nowhere.test:9/v1", ONLY_127_0_0_1, max_attempts=1))
        assert isinstance(failed, JudgeError) and failed.type == "judge_dns"


@pytest.fixture(scope="module")
def authority(tmp_path_factory: pytest.TempPathFactory) -> tuple[Authority, Path]:
    authority = Authority("On-premises CA")
    bundle = tmp_path_factory.mktemp("ca") / "ca.pem"
    bundle.write_bytes(authority.cert_pem)
    return authority, bundle


@pytest.fixture
def served_names() -> list[str | None]:
    return []


@pytest.fixture
def https_server(
    authority: tuple[Authority, Path], served_names: list[str | None]
) -> Iterator[LoopbackServer]:
    issued = authority[0].issue(dns_names=("models.test",))
    with LoopbackServer(tls=server_context(issued, served_names)) as server:
        server.routes["/v1/chat/completions"] = Route(
            body=COMPLETION, content_type="application/json"
        )
        yield server


class TestTls:
    def test_the_name_is_kept_for_sni_and_the_certificate(
        self,
        resolver: Resolver,
        https_server: LoopbackServer,
        authority: tuple[Authority, Path],
        served_names: list[str | None],
    ) -> None:
        resolver.answers["models.test"] = ["127.0.0.1"]
        resolver.answers["other.test"] = ["127.0.0.1"]
        bundle = str(authority[1])
        checked = endpoint(https_server.url("/v1", "models.test"), ONLY_127_0_0_1, ca_bundle=bundle)
        assert ask(checked) == ["yes"]
        assert served_names == ["models.test"]
        # The same address under a name the certificate does not hold: still refused by TLS.
        wrong = endpoint(
            https_server.url("/v1", "other.test"), ONLY_127_0_0_1, ca_bundle=bundle, max_attempts=1
        )
        [failed] = ask(wrong)
        assert isinstance(failed, JudgeError) and failed.type == "judge_tls"


@pytest.fixture
def rebinding_app(tmp_path: Path) -> Iterator[Any]:
    """An app whose operator allows models on 127.0.0.2 only (the scripted judge listens on
    127.0.0.1, which stands for the private address a rebinding name turns to)."""
    with side_app(tmp_path, allow_private_urls=False, model_allow=["127.0.0.2/32"]) as app:
        yield app


class TestThroughTheApi:
    def test_a_tenants_judge_rebound_after_the_checks_is_refused_on_connecting(
        self, resolver: Resolver, rebinding_app: Any, judge: ScriptedJudge
    ) -> None:
        judge.script(lambda request: Reply(content=json.dumps({"reasoning": "r", "verdict": "A"})))
        # Allowed when registered and when the job starts; the loopback judge when connecting.
        resolver.answers["rebind.test"] = ["127.0.0.2", "127.0.0.2", "127.0.0.1"]
        with rebinding_app.tenant_client() as client:
            registered = client.post(
                "/v1/models",
                json={
                    "base_url": f"http://rebind.test:{judge.port}/v1",
                    "model": "tenant-judge",
                    "api_key": "sk-tenant",
                },
            )
            assert registered.status_code == 201, registered.text
            created = client.post(
                "/v1/evaluations",
                json={
                    "test_cases": [
                        {"input": "q", "actual_output": "a", "expected_output": "a"},
                        {"input": "r", "actual_output": "b", "expected_output": "b"},
                    ],
                    "metrics": [{"type": "llm_accuracy"}],
                    "judge": {"model_id": registered.json()["id"]},
                },
            )
            assert created.status_code == 202, created.text
            evaluation_id = created.json()["id"]
            finished = rebinding_app.wait(client, evaluation_id)
            results = client.get(f"/v1/evaluations/{evaluation_id}/results").json()["data"]
        assert finished["result_counts"]["errored"] == 2
        for result in results:
            assert result["error"]["type"] == "judge_blocked"
            assert result["error"]["message"].startswith(
                f"the judge endpoint rebind.test:{judge.port} is not allowed by the model "
                "policy: rebind.test resolves to a loopback address"
            )
            assert "LOUPE_MODEL_ALLOW" in result["error"]["message"]
        assert judge.requests == []
        assert resolver.lookups[:2] == ["rebind.test", "rebind.test"]
