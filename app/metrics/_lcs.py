"""Longest-common-subsequence length in linear memory, and the token cap of text metrics.

rouge_chinese and rouge-score both fill the whole n × m LCS table (a dict of (i, j) tuples in
rouge_chinese: about 100 bytes a cell, 10k tokens a side was over 9 GB). `lcs_length` gives the
same length through rapidfuzz's bit-parallel LCS (C++, O(n·m/64) time, O(n + m) memory) over
tokens mapped to small integers, so equal tokens and only equal tokens compare equal (no hash
collisions).
"""

from collections.abc import Hashable, Sequence

from rapidfuzz.distance import LCSseq

from app.metrics._types import MetricError

# Tokens each side may have for ROUGE, BLEU and the text_similarity reference metrics. The worst
# case at the cap (no shared tokens, so METEOR's quadratic alignment and WordNet lookups run for
# every pair) costs about 1.1 s and 10 MB (bench/rouge_cost.py, docs/benchmarks.md); past it the
# result is an `input_too_long` error rather than a truncated, different, score.
MAX_SCORED_TOKENS = 4096


def lcs_length(x: Sequence[Hashable], y: Sequence[Hashable]) -> int:
    """The length of the longest common subsequence of two token sequences."""
    ids: dict[Hashable, int] = {}
    first = [ids.setdefault(token, len(ids)) for token in x]
    second = [ids.setdefault(token, len(ids)) for token in y]
    return int(LCSseq.similarity(first, second))


def too_long(metric: str, sides: dict[str, Sequence[object]]) -> MetricError | None:
    """An `input_too_long` error naming the first side with more than MAX_SCORED_TOKENS tokens."""
    for field, tokens in sides.items():
        if len(tokens) > MAX_SCORED_TOKENS:
            return MetricError(
                "input_too_long",
                f"{field} has {len(tokens):,} tokens, over the {metric} cap of "
                f"{MAX_SCORED_TOKENS:,} tokens a side (LCS and alignment costs grow with the "
                "product of both sides' lengths)",
            )
    return None
