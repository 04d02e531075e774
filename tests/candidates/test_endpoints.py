"""Candidate models through the HTTP API: keys kept secret, tenants apart, addresses checked."""

from pathlib import Path

from sqlalchemy import select

from app import migrate
from app.models import CandidateModel
from tests.fixtures.api import Api, ServedApp, sqlite_settings


class TestModels:
    def test_register_read_list_delete(self, api: Api) -> None:
        client = api.tenant_client()
        response = client.post(
            "/v1/models",
            json={"base_url": "http://127.0.0.1:9/v1/", "model": "m", "api_key": "sk-very-secret"},
        )
        assert response.status_code == 201, response.text
        model = response.json()
        assert model["base_url"] == "http://127.0.0.1:9/v1"
        assert model["has_api_key"] is True
        assert "sk-very-secret" not in response.text
        assert client.get(f"/v1/models/{model['id']}").json() == model
        listed = client.get("/v1/models").json()
        assert [m["id"] for m in listed["data"]] == [model["id"]]
        assert "sk-very-secret" not in str(listed)
        # Stored encrypted, not as the key itself.
        with api.served.runtime.session() as session:
            stored = session.scalars(
                select(CandidateModel.api_key_encrypted).where(CandidateModel.id == model["id"])
            ).one()
        assert stored and b"sk-very-secret" not in bytes(stored)
        assert client.delete(f"/v1/models/{model['id']}").status_code == 204
        assert client.get(f"/v1/models/{model['id']}").status_code == 404

    def test_other_tenants_get_404(self, api: Api) -> None:
        owner, other = api.tenant_client(), api.tenant_client()
        model = owner.post(
            "/v1/models", json={"base_url": "http://127.0.0.1:9/v1", "model": "m"}
        ).json()
        assert model["has_api_key"] is False
        assert other.get(f"/v1/models/{model['id']}").status_code == 404
        assert other.delete(f"/v1/models/{model['id']}").status_code == 404

    def test_bad_bodies(self, api: Api) -> None:
        client = api.tenant_client()
        response = client.post("/v1/models", json={"base_url": "file:///etc/passwd", "model": "m"})
        assert response.status_code == 422
        assert response.json()["errors"][0]["loc"] == "base_url"
        response = client.post(
            "/v1/models", json={"base_url": "http://user:pw@127.0.0.1/v1", "model": "m"}
        )
        assert response.status_code == 422
        assert (
            client.post("/v1/models", json={"base_url": "http://127.0.0.1/v1"}).status_code == 422
        )

    def test_a_url_without_a_usable_port_or_host_is_refused(self, api: Api) -> None:
        client = api.tenant_client()
        for url in ("http://localhost:99999/v1", "http://127.0.0.1:0/v1", "http://:8000/v1"):
            for path, body in (
                ("/v1/models", {"base_url": url, "model": "m"}),
                ("/v1/webhook_endpoints", {"url": url}),
            ):
                response = client.post(path, json=body)
                assert response.status_code == 422, (path, url, response.text)
                error = response.json()["errors"][0]
                assert error["loc"] == next(iter(body)), error
                assert "port" in error["msg"] or "host" in error["msg"], error


class TestModelAddresses:
    def test_loopback_refused_without_the_setting(self, tmp_path: Path) -> None:
        settings = sqlite_settings(tmp_path, allow_private_urls=False)
        migrate.upgrade(settings)
        with ServedApp(settings) as served:
            api = Api(mode="embedded", served=served)
            client = api.tenant_client()
            response = client.post(
                "/v1/models", json={"base_url": "http://127.0.0.1:9/v1", "model": "m"}
            )
        assert response.status_code == 422
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["errors"][0]["loc"] == "base_url"
