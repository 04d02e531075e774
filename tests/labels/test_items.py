"""An item's key is its judged content's: the same content in another evaluation (a re-run),
however its images arrived, has the same key; any change to what the judge saw changes it."""

from types import SimpleNamespace
from typing import Any

from app.labels.items import item_content, item_key

IMAGE = "blob:sha256:" + "ab" * 32


def case(**fields: Any) -> SimpleNamespace:
    stored: dict[str, Any] = {
        "input": ["What shape?", {"type": "image_url", "image_url": {"url": IMAGE}}],
        "actual_output": "A circle.",
        "expected_output": None,
        "context": None,
        "retrieval_context": ["The logo is round."],
        "messages": None,
    }
    return SimpleNamespace(**{**stored, **fields})


class TestItemKey:
    def test_the_same_content_has_the_same_key_whatever_its_upload(self) -> None:
        fetched = case()
        fetched.input[1]["blob"] = {"sha256": "ab" * 32, "source": "https://example.test/a.png"}
        inline = case()
        inline.input[1]["blob"] = {"sha256": "ab" * 32, "source": "data_url"}
        assert item_key(fetched) == item_key(inline) == item_key(case())
        assert len(item_key(fetched)) == 64
        # The stored row is left as it was.
        assert fetched.input[1]["blob"]["source"] == "https://example.test/a.png"

    def test_every_judged_field_counts(self) -> None:
        keys = {
            item_key(case()),
            item_key(case(actual_output="A square.")),
            item_key(case(expected_output="A circle.")),
            item_key(case(context=["Round."])),
            item_key(case(retrieval_context=["The logo is square."])),
            item_key(case(messages=[{"role": "user", "content": "What shape?"}])),
            item_key(
                case(
                    input=[
                        "What shape?",
                        {"type": "image_url", "image_url": {"url": IMAGE[:-1] + "c"}},
                    ]
                )
            ),
        }
        assert len(keys) == 7

    def test_absent_fields_are_left_out(self) -> None:
        assert set(item_content(case())) == {"input", "actual_output", "retrieval_context"}
        # A row without a field at all (older models, other kinds) reads as one without it.
        assert item_key(SimpleNamespace(input="2+2?", actual_output="4")) == item_key(
            case(input="2+2?", actual_output="4", retrieval_context=None)
        )
