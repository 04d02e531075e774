"""The official `openai` client, pointed at the API under test."""

from collections.abc import Iterator

import httpx
import openai
import pytest

from tests.fixtures.api import Api


@pytest.fixture
def client(api: Api) -> Iterator[openai.OpenAI]:
    http = httpx.Client(trust_env=False, timeout=30)
    yield openai.OpenAI(
        base_url=f"{api.base_url}/v1", api_key=api.new_key(), http_client=http, max_retries=0
    )
    http.close()
