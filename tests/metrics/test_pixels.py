"""psnr and ssim (scikit-image) on images built in the test, against hand-computed values."""

import base64
import io
import math

import pytest
from PIL import Image

from app.metrics import parse_spec
from app.metrics.ssim import window
from tests.fixtures.metrics import case, run_metric

C1 = (0.01 * 255) ** 2  # SSIM's luminance constant for 8-bit images


def png(color, size=(16, 16), mode="RGB") -> dict:
    buffer = io.BytesIO()
    Image.new(mode, size, color).save(buffer, format="PNG")
    url = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()
    return {"type": "image_url", "image_url": {"url": url}}


def pair(actual, expected):
    return case(actual_output=[actual], expected_output=["The reference:", expected])


class TestPsnr:
    def test_ten_log_of_peak_over_mse(self, judge) -> None:
        result = run_metric(judge, {"type": "psnr"}, pair(png((110, 90, 110)), png((100,) * 3)))
        # Every channel is 10 off: MSE 100.
        assert result.score == pytest.approx(10 * math.log10(255**2 / 100))
        assert (result.passed, result.threshold, result.logs["mse"]) == (False, 30.0, 100.0)
        assert result.usage.calls == 0 and judge.requests == []

    def test_identical_images_score_max_db(self, judge) -> None:
        spec = {"type": "psnr", "max_db": 60, "threshold": 40}
        result = run_metric(judge, spec, pair(png("red"), png("red")))
        assert (result.score, result.passed) == (60.0, True)

    def test_the_actual_image_is_resized_to_the_reference(self, judge) -> None:
        result = run_metric(judge, {"type": "psnr"}, pair(png("red", (40, 20)), png("red")))
        assert result.score == 100.0
        assert result.logs["resized"] is True
        assert (result.logs["size"], result.logs["actual_size"]) == ([16, 16], [40, 20])

    def test_transparency_counts_as_white(self, judge) -> None:
        clear = png((0, 0, 0, 0), mode="RGBA")
        result = run_metric(judge, {"type": "psnr"}, pair(clear, png("white")))
        assert result.score == 100.0

    def test_a_bad_image_is_an_error(self, judge) -> None:
        broken = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
        result = run_metric(judge, {"type": "psnr"}, pair(broken, png("red")))
        assert result.score is None and result.error.type == "invalid_image"


class TestSsim:
    def test_luminance_term_of_flat_images(self, judge) -> None:
        # Flat images have no variance: SSIM is the luminance term alone, per channel.
        result = run_metric(judge, {"type": "ssim"}, pair(png((110,) * 3), png((100,) * 3)))
        expected = (2 * 100 * 110 + C1) / (100**2 + 110**2 + C1)
        assert result.score == pytest.approx(expected)
        assert result.passed is True and result.logs["win_size"] == 7

    def test_identical_and_inverted(self, judge) -> None:
        checker = Image.new("L", (16, 16))
        checker.putdata([255 * ((x // 2 + y // 2) % 2) for y in range(16) for x in range(16)])
        inverted = Image.eval(checker, lambda v: 255 - v)

        def part(image):
            buffer = io.BytesIO()
            image.convert("RGB").save(buffer, format="PNG")
            url = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()
            return {"type": "image_url", "image_url": {"url": url}}

        assert run_metric(judge, {"type": "ssim"}, pair(part(checker), part(checker))).score == 1.0
        opposite = run_metric(judge, {"type": "ssim"}, pair(part(inverted), part(checker)))
        assert opposite.score < 0 and opposite.passed is False

    @pytest.mark.parametrize(("size", "expected"), [((16, 16), 7), ((6, 40), 5), ((3, 3), 3)])
    def test_window_fits_small_images(self, size, expected) -> None:
        assert window(*size) == expected

    def test_an_image_under_three_pixels_is_an_error(self, judge) -> None:
        result = run_metric(judge, {"type": "ssim"}, pair(png("red", (2, 2)), png("red", (2, 2))))
        assert result.error.type == "invalid_image" and "too small" in result.error.message


@pytest.mark.parametrize("metric", ["psnr", "ssim"])
def test_submit_needs_one_image_each_side(metric: str) -> None:
    spec = parse_spec({"type": metric})
    assert spec.test_case_problems(case(actual_output="text", expected_output=[png("red")])) == [
        ("actual_output", "needs exactly one image, has 0")
    ]
