"""Time and peak traced memory of ROUGE-L (and the other token metrics) against tokens a side.

`before` is the libraries' own LCS (rouge_chinese's dict table, rouge-score's list table), run
only up to 2,000 tokens so the machine keeps its memory; `after` is Loupe's scoring. Inputs are
the audit's: short words from a small vocabulary ("ab cd ef ..."), and for METEOR, BLEU and GLEU
distinct WordNet nouns (no exact match, so METEOR compares every pair and looks every word up in
WordNet). Figures: docs/benchmarks.md.

    .venv/bin/python bench/rouge_cost.py
    .venv/bin/python bench/rouge_cost.py --sizes 200   # a quick check that it runs
    .venv/bin/python bench/rouge_cost.py --sizes 0 --fuzzy 2000:30000,2730:4096

`--fuzzy` times `fuzzy_match` (rapidfuzz `WRatio`) on short words, shorter:longer characters a
side, past its cap too (the metric refuses a side over 4,096 characters before calling it).
"""

import argparse
import random
import time
import tracemalloc
from collections.abc import Callable

from rouge_chinese import Rouge
from rouge_score import rouge_scorer

from app.metrics import _similarity, _text_scores
from app.metrics._lcs import MAX_SCORED_TOKENS

SHORT = [a + b for a in "abcdefgh" for b in "ijklmnop"]  # 64 two-letter words


def _cost(score: Callable[[str, str], object], a: str, b: str) -> tuple[float, float]:
    started = time.perf_counter()
    score(a, b)
    elapsed = time.perf_counter() - started
    tracemalloc.start()
    score(a, b)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return elapsed, peak / 1e6


def _words(count: int, vocabulary: list[str], seed: int) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(vocabulary) for _ in range(count))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--sizes",
        default=f"500,1000,2000,{MAX_SCORED_TOKENS},10000",
        help="comma-separated tokens a side (the libraries' own LCS only up to 2,000)",
    )
    parser.add_argument(
        "--fuzzy",
        default="",
        help="comma-separated shorter:longer characters for fuzzy_match (e.g. 2730:4096)",
    )
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",") if int(size) > 0]
    for pair in filter(None, args.fuzzy.split(",")):
        shorter, longer = map(int, pair.split(":"))
        a, b = _words(shorter, SHORT, 1)[:shorter], _words(longer, SHORT, 2)[:longer]
        started, cpu = time.perf_counter(), time.process_time()
        _similarity.fuzzy_match(a, b)
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        print(
            f"fuzzy_match {len(a):,} against {len(b):,} characters: {elapsed:.3f} s "
            f"({cpu:.3f} s of CPU)",
            flush=True,
        )
    if not sizes:
        return
    library_rouge, library_rouge_l = Rouge(), rouge_scorer.RougeScorer(["rougeL"])
    scorers: dict[str, tuple[Callable[[str, str], object], int]] = {
        "before rouge_chinese get_scores": (library_rouge.get_scores, 2000),
        "before rouge-score rougeL": (library_rouge_l.score, 2000),
        "after rouge (text_scores)": (_text_scores.text_scores, 10_000),
        "after text_similarity rouge_l": (lambda a, b: _similarity.rouge("rouge_l", a, b), 10_000),
    }
    _similarity.wordnet()
    print(f"cap: {MAX_SCORED_TOKENS} tokens a side")
    print(f"{'scoring':34s} {'tokens':>7s} {'seconds':>8s} {'peak MB':>8s}")
    for name, (score, limit) in scorers.items():
        for tokens in sizes:
            if tokens <= limit:
                a, b = _words(tokens, SHORT, 1), _words(tokens, SHORT, 2)
                elapsed, peak = _cost(score, a, b)
                print(f"{name:34s} {tokens:7d} {elapsed:8.3f} {peak:8.1f}", flush=True)
    nouns = _similarity.wordnet().all_lemma_names(pos="n")
    distinct = [noun for noun in nouns if noun.isalpha()][: 2 * MAX_SCORED_TOKENS]
    for metric in ("meteor", "bleu", "gleu"):
        a, b = " ".join(distinct[:MAX_SCORED_TOKENS]), " ".join(distinct[MAX_SCORED_TOKENS:])
        elapsed, peak = _cost(lambda x, y, m=metric: _similarity.reference_score(m, x, y), a, b)
        print(
            f"{'after ' + metric + ' (distinct nouns)':34s} {MAX_SCORED_TOKENS:7d} "
            f"{elapsed:8.3f} {peak:8.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
