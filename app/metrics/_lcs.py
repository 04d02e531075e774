"""Longest-common-subsequence length in linear memory, and the token cap of text metrics.

rouge_chinese and rouge-score both fill the whole n × m LCS table (a dict of (i, j) tuples in
rouge_chinese: about 100 bytes a cell, 10k tokens a side was over 9 GB). `lcs_length` gives the
same length through rapidfuzz's bit-parallel LCS (C++, O(n·m/64) time, O(n + m) memory) over
tokens mapped to small integers, so equal tokens and only equal tokens compare equal (no hash
collisions).
"""

import asyncio
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from rapidfuzz.distance import LCSseq

from app.metrics._types import MetricError

# Tokens each side may have for ROUGE, BLEU and the text_similarity token metrics. At the cap the
# worst case measured is METEOR on two sides of distinct WordNet nouns (its alignment compares
# every pair and looks every word up): 0.9 s and 3 MB traced; ROUGE with BLEU take 0.08 s and
# 2 MB (bench/rouge_cost.py, docs/benchmarks.md). Past it the result is an `input_too_long`
# error, never a truncated score that would differ from EvalScope's.
MAX_SCORED_TOKENS = 4096
# Characters each side may have for the same metrics, checked before any tokeniser runs: jieba
# and NLTK cost about 60 µs a character, so a side of a million Chinese characters held the
# judge loop for a minute only to be refused at the token cap. Sixteen characters a token is
# far more than text at the token cap has (English about six, Chinese under two).
MAX_SCORED_CHARACTERS = 16 * MAX_SCORED_TOKENS
# A pair longer than this (both sides' characters) is tokenised and scored in a worker thread,
# not on the judge loop every job's calls share; shorter pairs are scored in place (a thread
# hop costs more than they do).
OFF_LOOP_CHARACTERS = 2_000

T = TypeVar("T")


def lcs_length(x: Sequence[Hashable], y: Sequence[Hashable]) -> int:
    """The length of the longest common subsequence of two token sequences."""
    ids: dict[Hashable, int] = {}
    first = [ids.setdefault(token, len(ids)) for token in x]
    second = [ids.setdefault(token, len(ids)) for token in y]
    return int(LCSseq.similarity(first, second))


async def scored(work: Callable[[], T], *texts: str) -> T:
    """`work()`, in a worker thread when `texts` are long (OFF_LOOP_CHARACTERS)."""
    if sum(len(text) for text in texts) <= OFF_LOOP_CHARACTERS:
        return work()
    return await asyncio.to_thread(work)


def too_many_characters(metric: str, sides: dict[str, str]) -> MetricError | None:
    """`input_too_long` naming the first side of more than MAX_SCORED_CHARACTERS, before
    anything tokenises it."""
    return too_long(metric, sides, MAX_SCORED_CHARACTERS, "characters")


def chunks_past_cap(text: str, words_only: bool = False) -> list[str] | None:
    """The whitespace-separated chunks of `text` when they alone pass MAX_SCORED_TOKENS (each is
    at least one token, so the side is past the cap without tokenising it: NLTK and jieba took
    seconds of the judge loop on a long text); else None. `words_only`: count only chunks with a
    letter or digit (ROUGE tokenisers drop punctuation)."""
    chunks = text.split()
    if words_only and len(chunks) > MAX_SCORED_TOKENS:
        chunks = [chunk for chunk in chunks if any(char.isalnum() for char in chunk)]
    return chunks if len(chunks) > MAX_SCORED_TOKENS else None


def too_long(
    metric: str,
    sides: dict[str, Sequence[object]],
    cap: int = MAX_SCORED_TOKENS,
    unit: str = "tokens",
) -> MetricError | None:
    """An `input_too_long` error naming the first side with more than `cap` items."""
    for field, tokens in sides.items():
        if len(tokens) > cap:
            return MetricError(
                "input_too_long",
                f"{field} has {len(tokens):,} {unit}, over the {metric} cap of "
                f"{cap:,} {unit} a side (LCS and alignment costs grow with the "
                "product of both sides' lengths)",
            )
    return None
