"""Data-URL decoding, the checks on image bytes, and normalisation for judges."""

import io
import struct
import zlib

import pytest
from PIL import Image

from app.media.images import (
    ImageError,
    ImageLimits,
    check,
    decode_data_url,
    normalise,
    sniff,
)
from tests.media.loopback import data_url, encode, png

LIMITS = ImageLimits()


def refused(type_: str, call, *args) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(ImageError) as caught:
        call(*args)
    assert caught.value.type == type_, caught.value.message
    return caught.value.message


def png_header(width: int, height: int) -> bytes:
    """A PNG that claims `width` x `height` pixels but carries almost no data."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
        return struct.pack(">I", len(data)) + tag + data + crc

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + chunk(b"IEND", b"")
    )


def halves(size: tuple[int, int], left: str, right: str) -> Image.Image:
    image = Image.new("RGB", size, right)
    image.paste(Image.new("RGB", (size[0] // 2, size[1]), left), (0, 0))
    return image


class TestDecodeDataUrl:
    def test_decodes(self) -> None:
        data = png()
        assert decode_data_url(data_url(data), LIMITS.max_bytes) == ("png", data)
        assert decode_data_url(data_url(data, "IMAGE/PNG"), LIMITS.max_bytes)[0] == "png"

    @pytest.mark.parametrize(
        "url",
        [
            "data:image/svg+xml;base64,PHN2Zz4=",
            "data:image/bmp;base64,Qk0=",
            "data:text/plain;base64,aGk=",
            "data:image/png,rawbytes",
            "data:image/png;charset=utf-8;base64,aGk=",
            "data:;base64,aGk=",
        ],
    )
    def test_only_four_base64_image_types(self, url: str) -> None:
        refused("image_data_url", decode_data_url, url, LIMITS.max_bytes)

    @pytest.mark.parametrize(
        "payload", ["@@@@", "abc", "iVBO Rw0K", "iVBORw0K\n", "iVBORw0K====", "ab-_"]
    )
    def test_bad_base64(self, payload: str) -> None:
        refused("image_base64", decode_data_url, "data:image/png;base64," + payload, 1000)

    def test_too_large_is_refused_before_decoding(self) -> None:
        # Not valid base64 either: the length alone refuses it.
        url = "data:image/png;base64," + "!" * 4000
        message = refused("image_too_large", decode_data_url, url, 1000)
        assert "LOUPE_MAX_IMAGE_BYTES" in message


class TestCheck:
    @pytest.mark.parametrize(
        ("data", "fmt"),
        [
            (png(), "png"),
            (encode(Image.new("RGB", (8, 8)), "JPEG"), "jpeg"),
            (encode(Image.new("RGB", (8, 8)), "WEBP"), "webp"),
            (encode(Image.new("P", (8, 8)), "GIF"), "gif"),
        ],
    )
    def test_sniffs_the_four_formats(self, data: bytes, fmt: str) -> None:
        assert sniff(data) == fmt
        assert check(data, fmt, LIMITS) == fmt

    def test_declared_type_must_match_the_bytes(self) -> None:
        jpeg = encode(Image.new("RGB", (8, 8)), "JPEG")
        message = refused("image_type_mismatch", check, jpeg, "png", LIMITS)
        assert message == "declared image/png but the bytes are image/jpeg"

    @pytest.mark.parametrize(
        "data",
        [
            b"hello",
            b"<svg xmlns='http://www.w3.org/2000/svg'/>",
            encode(Image.new("RGB", (8, 8)), "BMP"),
        ],
    )
    def test_other_bytes_are_not_images(self, data: bytes) -> None:
        refused("image_type", check, data, None, LIMITS)

    def test_a_truncated_image_is_unreadable(self) -> None:
        refused("image_unreadable", normalise, png((64, 64))[:60], "png", LIMITS)
        jpeg = encode(halves((64, 64), "red", "blue"), "JPEG")
        refused("image_unreadable", normalise, b"\xff\xd8\xff" + b"\x00" * 40, "jpeg", LIMITS)
        assert normalise(jpeg, "jpeg", LIMITS).data == jpeg

    def test_byte_cap(self) -> None:
        refused("image_too_large", check, png(), "png", ImageLimits(max_bytes=50))

    @pytest.mark.parametrize("size", [(8000, 8000), (60000, 60000), (1, 2**31 - 1)])
    def test_decompression_bombs_are_refused_from_the_header(self, size: tuple[int, int]) -> None:
        refused("image_too_many_pixels", normalise, png_header(*size), "png", LIMITS)

    def test_pixel_cap_is_a_setting(self) -> None:
        refused(
            "image_too_many_pixels", check, png((100, 100)), "png", ImageLimits(max_pixels=9999)
        )


class TestNormalise:
    @pytest.mark.parametrize(
        "data",
        [
            png((300, 200)),
            encode(halves((300, 200), "red", "blue"), "JPEG", quality=80),
            encode(Image.new("P", (50, 50)), "PNG", transparency=0),
            encode(Image.new("RGBA", (50, 50), (1, 2, 3, 100)), "WEBP"),
        ],
    )
    def test_images_within_limits_are_sent_as_they_came(self, data: bytes) -> None:
        image = normalise(data, None, LIMITS)
        assert image.data == data
        assert image.changes == ()
        assert image.sent == image.original

    def test_exif_orientation_is_applied(self) -> None:
        exif = Image.Exif()
        exif[0x0112] = 6  # stored sideways: display rotated 90° clockwise
        data = encode(halves((40, 20), "red", "blue"), "JPEG", exif=exif.tobytes(), quality=95)
        image = normalise(data, "jpeg", LIMITS)
        assert image.changes == ("exif_orientation",)
        assert (image.original.width, image.original.height) == (40, 20)
        assert (image.sent.width, image.sent.height) == (20, 40)
        upright = Image.open(io.BytesIO(image.data))
        assert upright.format == "JPEG" and upright.size == (20, 40)
        assert upright.getexif().get(0x0112, 1) == 1
        red, green, blue = upright.getpixel((10, 5))
        assert red > 200 and blue < 60  # the left (red) half is now on top
        red, green, blue = upright.getpixel((10, 35))
        assert blue > 200 and red < 60

    def test_long_side_is_capped(self) -> None:
        image = normalise(png((3000, 1000)), "png", LIMITS)
        assert image.changes == ("downscaled",)
        assert (image.sent.format, image.sent.width, image.sent.height) == ("png", 2048, 683)
        assert (image.original.width, image.original.height) == (3000, 1000)
        assert Image.open(io.BytesIO(image.data)).size == (2048, 683)

    def test_downscaled_jpeg_stays_jpeg(self) -> None:
        data = encode(halves((1000, 3000), "red", "blue"), "JPEG")
        image = normalise(data, "jpeg", ImageLimits(max_side=512))
        assert (image.sent.format, image.sent.width, image.sent.height) == ("jpeg", 171, 512)
        assert image.media_type == "image/jpeg"

    def test_cmyk_becomes_rgb(self) -> None:
        data = encode(Image.new("CMYK", (16, 16), (0, 255, 255, 0)), "JPEG")
        image = normalise(data, "jpeg", LIMITS)
        assert image.changes == ("mode_CMYK",)
        sent = Image.open(io.BytesIO(image.data))
        assert sent.mode == "RGB" and sent.format == "JPEG"
        red, green, blue = sent.getpixel((8, 8))
        assert red > 200 and green < 60 and blue < 60

    def test_sixteen_bit_grey_keeps_its_tones(self) -> None:
        data = encode(Image.new("I;16", (16, 16), 40000), "PNG")
        image = normalise(data, "png", LIMITS)
        sent = Image.open(io.BytesIO(image.data))
        assert sent.mode == "L" and sent.getpixel((0, 0)) == 40000 // 256

    def test_animations_send_their_first_frame(self) -> None:
        frames = [Image.new("RGB", (20, 20), color) for color in ("red", "blue", "green")]
        data = encode(frames[0], "GIF", save_all=True, append_images=frames[1:], duration=100)
        image = normalise(data, "gif", LIMITS)
        assert "first_frame" in image.changes
        sent = Image.open(io.BytesIO(image.data))
        assert sent.format == "PNG" and getattr(sent, "n_frames", 1) == 1
        assert sent.convert("RGB").getpixel((5, 5))[0] > 200

    def test_same_bytes_same_digest(self) -> None:
        data = png((3000, 100))
        assert normalise(data, "png", LIMITS).sha256 == normalise(data, None, LIMITS).sha256


class TestLargeImages:
    def test_a_large_jpeg_turned_upright_after_its_reduced_decode(self) -> None:
        exif = Image.Exif()
        exif[0x0112] = 6  # stored sideways: display rotated 90° clockwise
        data = encode(halves((4400, 2000), "red", "blue"), "JPEG", exif=exif.tobytes())
        image = normalise(data, "jpeg", ImageLimits(max_side=1000))
        assert image.changes == ("exif_orientation", "downscaled")
        assert (image.sent.format, image.sent.width, image.sent.height) == ("jpeg", 455, 1000)
        upright = Image.open(io.BytesIO(image.data))
        assert upright.getpixel((200, 100))[0] > 200  # the left (red) half is now on top
        assert upright.getpixel((200, 900))[2] > 200

    def test_transparent_pixels_do_not_darken_the_edges_they_border(self) -> None:
        # Resized with premultiplied alpha: the invisible black of the right half stays out.
        picture = Image.new("RGBA", (9000, 100), (0, 0, 0, 0))
        picture.paste(Image.new("RGBA", (4500, 100), (255, 0, 0, 255)), (0, 0))
        image = normalise(encode(picture), "png", LIMITS)
        assert (image.sent.width, image.sent.height) == (2048, 23)
        sent = Image.open(io.BytesIO(image.data))
        assert sent.mode == "RGBA"
        visible = [sent.getpixel((x, 10)) for x in range(1000, 1100)]
        assert all(red >= 250 for red, _, _, alpha in visible if alpha > 8)
        assert {alpha for *_, alpha in visible} - {0, 255}  # the edge is blended, not cut
