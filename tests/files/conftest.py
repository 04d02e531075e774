from tests.fixtures.openai_client import client  # noqa: F401
