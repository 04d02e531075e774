"""One operator policy per purpose (models, image URLs, webhook receivers), a private CA
bundle, and the deprecated LOUPE_ALLOW_PRIVATE_URLS / LOUPE_FETCH_ALLOWLIST.

The address checks on private ranges (10.0.0.0/8, fd00::/8) are tested on the check itself:
nothing here connects anywhere but 127.0.0.1.
"""

import asyncio
import ipaddress
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from app.config import Settings
from app.judges import JudgeClient, JudgeEndpoint, JudgeError
from app.media.fetch import FetchError, FetchPolicy, fetch_image, new_client, trust_context
from app.media.netguard import AddressPolicy, BlockedAddress, parse_allow
from tests.fixtures.api import Api, side_app
from tests.media.certs import Authority, server_context
from tests.media.loopback import LoopbackServer, Route, png

IMAGE = png((20, 10))


def ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    return ipaddress.ip_address(text)


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


class TestPerPurposeChecks:
    ON_PREM = settings(model_allow=["10.0.0.0/8", "vllm"])

    def test_private_model_accepted_while_image_on_it_is_refused(self) -> None:
        address = [ip("10.0.0.5")]
        AddressPolicy.for_purpose(self.ON_PREM, "model").check("10.0.0.5", address)
        with pytest.raises(BlockedAddress) as caught:
            AddressPolicy.for_purpose(self.ON_PREM, "image").check("10.0.0.5", address)
        assert "10.0.0.5 is a private address" in str(caught.value)
        assert "LOUPE_IMAGE_ALLOW" in str(caught.value)
        with pytest.raises(BlockedAddress, match="LOUPE_WEBHOOK_ALLOW"):
            AddressPolicy.for_purpose(self.ON_PREM, "webhook").check("10.0.0.5", address)

    def test_a_name_allowed_for_models_only(self) -> None:
        resolved = [ip("172.18.0.4")]
        AddressPolicy.for_purpose(self.ON_PREM, "model").check("vllm", resolved)
        with pytest.raises(BlockedAddress, match="vllm resolves to a private address"):
            AddressPolicy.for_purpose(self.ON_PREM, "image").check("vllm", resolved)

    def test_the_range_bounds_what_is_allowed(self) -> None:
        model = AddressPolicy.for_purpose(self.ON_PREM, "model")
        for outside in ("192.168.1.10", "127.0.0.1", "169.254.169.254"):
            with pytest.raises(BlockedAddress, match="LOUPE_MODEL_ALLOW"):
                model.check(outside, [ip(outside)])

    def test_every_resolved_address_must_be_allowed(self) -> None:
        model = AddressPolicy.for_purpose(self.ON_PREM, "model")
        with pytest.raises(BlockedAddress):
            model.check("split.example", [ip("10.1.1.1"), ip("192.168.0.1")])

    def test_embedded_ipv4_inside_the_range(self) -> None:
        model = AddressPolicy.for_purpose(self.ON_PREM, "model")
        model.check("::ffff:10.2.3.4", [ip("::ffff:10.2.3.4")])
        with pytest.raises(BlockedAddress):
            AddressPolicy.for_purpose(self.ON_PREM, "image").check(
                "::ffff:10.2.3.4", [ip("::ffff:10.2.3.4")]
            )

    def test_ipv6_ranges(self) -> None:
        policy = AddressPolicy.for_purpose(settings(image_allow="fd00::/8"), "image")
        policy.check("fd12::7", [ip("fd12::7")])
        with pytest.raises(BlockedAddress):
            policy.check("fe80::1", [ip("fe80::1")])

    def test_defaults_are_public_only(self) -> None:
        for purpose in ("model", "image", "webhook"):
            policy = AddressPolicy.for_purpose(settings(), purpose)  # type: ignore[arg-type]
            with pytest.raises(BlockedAddress):
                policy.check("10.0.0.5", [ip("10.0.0.5")])
            policy.check("8.8.8.8", [ip("8.8.8.8")])

    def test_deprecated_settings_open_every_purpose(self) -> None:
        legacy = settings(allow_private_urls=True)
        wide = settings(fetch_allowlist="intranet.corp")
        for purpose in ("model", "image", "webhook"):
            AddressPolicy.for_purpose(legacy, purpose).check("x", [ip("10.0.0.5")])  # type: ignore[arg-type]
            AddressPolicy.for_purpose(wide, purpose).check(  # type: ignore[arg-type]
                "intranet.corp", [ip("10.0.0.5")]
            )


class TestAllowSettings:
    def test_entries_are_names_and_ranges(self) -> None:
        names, networks = parse_allow(["vllm", " Models.Corp. ", "10.0.0.0/8", "192.168.1.7"])
        assert names == {"vllm", "models.corp"}
        assert networks == (
            ipaddress.ip_network("10.0.0.0/8"),
            ipaddress.ip_network("192.168.1.7/32"),
        )

    @pytest.mark.parametrize("entry", ["10.0.0.0/33", "300.1.1.1/8", "bad host", "a..b"])
    def test_a_typo_fails_at_start_up(self, entry: str) -> None:
        with pytest.raises(ValidationError):
            settings(model_allow=entry)

    def test_env_value_is_comma_separated(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("LOUPE_MODEL_ALLOW", "10.0.0.0/8,vllm")
        assert settings().model_allow == ["10.0.0.0/8", "vllm"]

    def test_missing_ca_bundle_fails_at_start_up(self, tmp_path: Path) -> None:
        with pytest.raises(ValidationError, match="not a file"):
            settings(ca_bundle=tmp_path / "nope.pem")


@pytest.fixture
def images() -> Iterator[LoopbackServer]:
    with LoopbackServer() as server:
        server.routes["/image.png"] = Route(body=IMAGE)
        yield server


@pytest.fixture
def models_only(tmp_path: Path) -> Iterator[Api]:
    """An app whose operator allows loopback for models, and for nothing else."""
    with side_app(tmp_path, allow_private_urls=False, model_allow=["127.0.0.0/8"]) as app:
        yield app


class TestThroughTheApi:
    def test_model_on_the_address_accepted_image_refused(
        self, models_only: Api, images: LoopbackServer
    ) -> None:
        part = {"type": "image_url", "image_url": {"url": images.url("/image.png")}}
        with models_only.tenant_client() as client:
            model = client.post(
                "/v1/models",
                json={"base_url": images.url("/v1"), "model": "m", "api_key": "k"},
            )
            evaluation = client.post(
                "/v1/evaluations",
                json={
                    "test_cases": [
                        {
                            "input": "x",
                            "actual_output": [part],
                            "expected_output": "x",
                        }
                    ],
                    "metrics": [{"type": "exact_match"}],
                },
            )
            hook = client.post("/v1/webhook_endpoints", json={"url": images.url("/hook")})
        assert model.status_code == 201, model.text
        assert evaluation.status_code == 422
        [error] = evaluation.json()["errors"]
        assert error["loc"] == "test_cases[0].actual_output[0].image_url.url"
        assert "loopback" in error["msg"] and "LOUPE_IMAGE_ALLOW" in error["msg"]
        assert hook.status_code == 422 and "LOUPE_WEBHOOK_ALLOW" in hook.text
        assert images.hits == []  # refused before any connection

    def test_default_refuses_a_private_model_naming_the_setting(
        self, tmp_path: Path, images: LoopbackServer
    ) -> None:
        with side_app(tmp_path, allow_private_urls=False) as app, app.tenant_client() as client:
            response = client.post("/v1/models", json={"base_url": images.url("/v1"), "model": "m"})
        assert response.status_code == 422
        [error] = response.json()["errors"]
        assert error["loc"] == "base_url" and "LOUPE_MODEL_ALLOW" in error["msg"]


class Answer(BaseModel):
    verdict: str


COMPLETION = json.dumps(
    {
        "id": "c",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": '{"verdict": "yes"}'},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
).encode()


@pytest.fixture(scope="module")
def private_ca(tmp_path_factory: pytest.TempPathFactory) -> tuple[Authority, Path]:
    authority = Authority("On-premises CA")
    bundle = tmp_path_factory.mktemp("ca") / "ca.pem"
    bundle.write_bytes(authority.cert_pem)
    return authority, bundle


@pytest.fixture
def https_server(private_ca: tuple[Authority, Path]) -> Iterator[LoopbackServer]:
    authority, _ = private_ca
    names: list[str | None] = []
    issued = authority.issue(dns_names=("localhost",))
    with LoopbackServer(tls=server_context(issued, names)) as server:
        server.routes["/v1/chat/completions"] = Route(
            body=COMPLETION, content_type="application/json"
        )
        server.routes["/image.png"] = Route(body=IMAGE)
        yield server


class TestPrivateCa:
    def ask(self, server: LoopbackServer, bundle: Path | None) -> str:
        async def go() -> str:
            endpoint = JudgeEndpoint(
                base_url=server.url("/v1", "localhost"),
                api_key="k",
                default_model="m",
                max_attempts=1,
                ca_bundle=str(bundle) if bundle else None,
            )
            client = JudgeClient(endpoint)
            try:
                return (await client.call([{"role": "user", "content": "?"}], Answer)).data[
                    "verdict"
                ]
            finally:
                await client.close()

        return asyncio.run(go())

    def test_model_behind_a_private_ca(
        self, https_server: LoopbackServer, private_ca: tuple[Authority, Path]
    ) -> None:
        _, bundle = private_ca
        with pytest.raises(JudgeError) as caught:
            self.ask(https_server, None)
        assert caught.value.kind == "tls"
        assert self.ask(https_server, bundle) == "yes"

    def test_image_behind_a_private_ca(
        self, https_server: LoopbackServer, private_ca: tuple[Authority, Path]
    ) -> None:
        _, bundle = private_ca
        policy = FetchPolicy(AddressPolicy(allow_private=True), max_bytes=100_000, timeout=5.0)
        url = https_server.url("/image.png", "localhost")

        async def fetch(verify: object) -> bytes:
            async with new_client(policy, verify) as client:  # type: ignore[arg-type]
                return (await fetch_image(client, url, policy)).data

        with pytest.raises(FetchError, match="certificate"):
            asyncio.run(fetch(trust_context(None)))
        assert asyncio.run(fetch(trust_context(bundle))) == IMAGE
