"""Listing evals page by page through the SDK, on both backends, while evals are deleted."""

import openai
import pytest

from tests.evals.helpers import CRITERIA, create_eval


class TestAfter:
    def test_auto_pagination_survives_deleting_the_cursor(self, client: openai.OpenAI) -> None:
        created = [create_eval(client, CRITERIA[:1]).id for _ in range(3)]
        seen = []
        for ev in client.evals.list(limit=1):
            seen.append(ev.id)
            if ev.id == created[1]:
                # The next page is asked for after an eval that no longer exists.
                client.evals.delete(ev.id)
        assert seen == created

    def test_an_unknown_cursor_keeps_its_place(self, client: openai.OpenAI) -> None:
        first, second, third = (create_eval(client, CRITERIA[:1]).id for _ in range(3))
        client.evals.delete(second)
        assert [e.id for e in client.evals.list(after=second).data] == [third]
        assert [e.id for e in client.evals.list(after=second, order="desc").data] == [first]
        # Another tenant's id, or one never issued, sorts somewhere: never back to the top.
        assert client.evals.list(after="eval_zzzzzzzz").data == []

    def test_updated_at_order_refuses_a_cursor_it_cannot_place(self, client: openai.OpenAI) -> None:
        first, second = (create_eval(client, CRITERIA[:1]).id for _ in range(2))
        page = client.evals.list(order_by="updated_at", after=first)
        assert [e.id for e in page.data] == [second]
        client.evals.delete(first)
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.list(order_by="updated_at", after=first)
        assert refused.value.param == "after"
