"""Formatting helpers of the console (pure functions)."""

import typing

from app.console import views
from app.evaluations.schemas import ErrorInfo
from app.judges._errors import FailureKind


class TestPlainError:
    def test_every_judge_failure_kind_has_words(self) -> None:
        for kind in typing.get_args(FailureKind):
            for role, subject in (("judge", "The judge model"), ("candidate", "The candidate")):
                words = views.plain_error({"type": f"{role}_{kind}", "message": "x"})
                assert words is not None and words.startswith(subject), kind
                assert "failed (" not in words, kind

    def test_known_and_unknown_types(self) -> None:
        assert "JSON" in views.plain_error({"type": "invalid_json", "message": ""})
        assert views.plain_error({"type": "surprise", "message": ""}) == (
            "The metric failed (surprise)."
        )
        assert views.plain_error(None) is None

    def test_the_models_services_return_read_like_stored_dicts(self) -> None:
        model = ErrorInfo(type="judge_timeout", message="x")
        assert views.plain_error(model) == views.plain_error(model.model_dump())


class TestParts:
    def test_text_images_audio(self) -> None:
        digest = "a" * 64
        rendered = views.parts(
            [
                "plain",
                {"type": "text", "text": "<b>"},
                {"type": "image_url", "image_url": {"url": f"blob:sha256:{digest}"}},
                {"type": "input_audio", "input_audio": {"data": f"blob:sha256:{digest}"}},
            ]
        )
        assert [part["kind"] for part in rendered] == ["text", "text", "image", "audio"]
        assert rendered[2]["digest"] == rendered[3]["digest"] == digest
        # Numbered among their own kind, for alt text: the first image is image 1.
        assert rendered[2]["number"] == rendered[3]["number"] == 1
        assert views.parts("just text") == [{"kind": "text", "text": "just text"}]


class TestHistogram:
    def test_bars_scale_to_the_tallest(self) -> None:
        bars = views.histogram_bars([0, 2, 4], width=30, height=40)
        assert [bar["height"] for bar in bars] == [0, 20.0, 40]
        assert bars[1]["label"] == "0.3–0.7: 2"
