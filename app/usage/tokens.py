"""Tokens a judge call is billed for, counted before it is made: text with OpenAI's tokenizer for
the judge's model family (tiktoken), images by OpenAI's published tile rule.

The encodings' BPE ranks ship gzipped in `encodings/` (2.4 MB, tiktoken's MIT licence) and are
checked against the hashes tiktoken itself pins: tiktoken would otherwise download them on first
use, from a host neither the tests nor many deployments reach. The patterns and special tokens
below are tiktoken's own (`tiktoken_ext/openai_public.py`).
"""

import base64
import gzip
import hashlib
import math
import re
import threading
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

import tiktoken

_O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
_CL100K_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""  # noqa: E501

_ENCODINGS: dict[str, tuple[str, str, dict[str, int]]] = {
    "o200k_base": (
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        _O200K_PATTERN,
        {"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
    ),
    "cl100k_base": (
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        _CL100K_PATTERN,
        {
            "<|endoftext|>": 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276,
        },
    ),
}
_LOCK = threading.Lock()

# Model names of the older family (cl100k_base); gpt-4o, gpt-4.1, gpt-5 and the o-series use
# o200k_base, as does any model tiktoken does not know (with a note).
_CL100K_PREFIXES = ("gpt-4-", "gpt-3.5", "gpt-35", "text-embedding-3", "text-embedding-ada")
_O200K_PREFIXES = ("gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "o1", "o3", "o4", "chatgpt-4o")

# OpenAI's chat format: each message costs its content plus 3 tokens (and 1 for a name); every
# reply is primed with 3 more.
TOKENS_PER_MESSAGE = 3
TOKENS_PER_REPLY = 3


@cache
def encoding(name: str) -> tiktoken.Encoding:
    """The named encoding, built from the shipped ranks (checked against tiktoken's hash)."""
    expected, pattern, special = _ENCODINGS[name]
    with _LOCK:
        raw = gzip.decompress(
            resources.files("app.usage").joinpath("encodings", f"{name}.tiktoken.gz").read_bytes()
        )
    if hashlib.sha256(raw).hexdigest() != expected:
        raise RuntimeError(f"the shipped {name} ranks do not match tiktoken's hash")
    ranks = {
        base64.b64decode(token): int(rank)
        for token, rank in (line.split() for line in raw.splitlines() if line)
    }
    return tiktoken.Encoding(
        name=name, pat_str=pattern, mergeable_ranks=ranks, special_tokens=special
    )


def encoding_for(model: str | None) -> tuple[str, bool]:
    """(encoding name, known) for a judge model; an unknown family counts with o200k_base."""
    name = (model or "").lower().rsplit("/", 1)[-1]
    if name.startswith(_O200K_PREFIXES):
        return "o200k_base", True
    if name == "gpt-4" or name.startswith(_CL100K_PREFIXES):
        return "cl100k_base", True
    return "o200k_base", False


def count_text(text: str, encoding_name: str) -> int:
    """Tokens of a text (special-token spellings counted as plain text, as providers do)."""
    if len(text) <= _REMEMBERED_LENGTH:
        return _count_short(text, encoding_name)
    return _count_long(text, encoding_name)


# A metric's instructions are the same in every call: short texts are counted once.
_REMEMBERED_LENGTH = 4000


@lru_cache(maxsize=2048)
def _count_short(text: str, encoding_name: str) -> int:
    return len(encoding(encoding_name).encode_ordinary(text))


# A line break followed by a letter ends a piece of both encodings' pre-tokenizer: no pattern
# takes a letter after a line break into a piece that started before it (a word's optional
# first character is never a line break), and what comes before ends the same way whatever
# follows (its line break is the end of a whitespace or punctuation piece). So the tokens of
# a text are the sum of the tokens of its stretches cut just after such breaks; tests/usage
# checks it on random texts against the whole. Cut only before a capital A-Z: prompts' headings
# ("Turn 3 (user):") start so, and an ASCII class is searched several times faster.
_CUT = re.compile(r"\n(?=[A-Z])")
# Stretches' counts by (encoding, length, hash): prompts that repeat a conversation's turns
# (each judged turn shows a window of the turns before it) count each turn once, and no text
# is kept alive by the memo. A hash collision would miscount one stretch of one estimate.
_STRETCHES: dict[tuple[str, int, int], int] = {}
_MAX_STRETCHES = 200_000


def _count_long(text: str, encoding_name: str) -> int:
    encoder = encoding(encoding_name)
    total = 0
    start = 0
    ends = [match.end() for match in _CUT.finditer(text)]
    ends.append(len(text))
    for end in ends:
        stretch = text[start:end]
        start = end
        key = (encoding_name, len(stretch), hash(stretch))
        count = _STRETCHES.get(key)
        if count is None:
            count = len(encoder.encode_ordinary(stretch))
            if len(_STRETCHES) >= _MAX_STRETCHES:
                _STRETCHES.clear()
            _STRETCHES[key] = count
        total += count
    return total


@dataclass(frozen=True)
class ImageSize:
    width: int
    height: int


# OpenAI's rule for images (gpt-4o, gpt-4.1, gpt-5): scaled to fit 2048 x 2048, then the shortest
# side to 768; 85 tokens, and 170 per 512-pixel tile. `low` detail is 85 whatever the size.
IMAGE_BASE_TOKENS = 85
IMAGE_TILE_TOKENS = 170
# An image whose size is not known is counted at the rule's maximum: 2048 x 768 after scaling.
LARGEST_IMAGE = ImageSize(2048, 768)


def image_tokens(size: ImageSize | None, detail: str | None = None) -> int:
    """An image's prompt tokens by OpenAI's published rule; None: the largest an image costs."""
    if detail == "low":
        return IMAGE_BASE_TOKENS
    width, height = (size or LARGEST_IMAGE).width, (size or LARGEST_IMAGE).height
    if max(width, height) > 2048:
        scale = 2048 / max(width, height)
        width, height = width * scale, height * scale
    if min(width, height) > 768:
        scale = 768 / min(width, height)
        width, height = width * scale, height * scale
    tiles = math.ceil(width / 512) * math.ceil(height / 512)
    return IMAGE_BASE_TOKENS + IMAGE_TILE_TOKENS * tiles


def count_messages(
    messages: list[dict[str, Any]],
    encoding_name: str,
    image_size: Any = None,
) -> tuple[int, int]:
    """(prompt tokens, images of unknown size) of chat messages as a provider counts them.

    Args:
        image_size: url -> ImageSize or None (unknown: counted at the maximum).
    """
    total = TOKENS_PER_REPLY
    unknown = 0
    for message in messages:
        total += TOKENS_PER_MESSAGE + count_text(str(message.get("role", "")), encoding_name)
        if message.get("name"):
            total += 1 + count_text(str(message["name"]), encoding_name)
        content = message.get("content")
        if isinstance(content, str):
            total += count_text(content, encoding_name)
            continue
        for part in content or []:
            if part.get("type") == "text":
                total += count_text(part.get("text") or "", encoding_name)
            elif part.get("type") == "image_url":
                image = part.get("image_url") or {}
                url = image if isinstance(image, str) else image.get("url", "")
                size = image_size(url) if image_size is not None else None
                unknown += size is None
                detail = None if isinstance(image, str) else image.get("detail")
                total += image_tokens(size, detail)
    return total, unknown
