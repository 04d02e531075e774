"""EvalScope 1.14.1's per-sample BLEU-1..4 and ROUGE-{1,2,L}-{R,P,F}, numerically identical.

BLEU: each string tokenised on its own (jieba for text with CJK ideographs, else NLTK's
`word_tokenize`), case-sensitive, then NLTK `sentence_bleu` with individual n-gram weights and
no smoothing. ROUGE: `rouge_chinese.Rouge()` on the strings (CJK text jieba-cut and re-joined
with spaces); where the library refuses a string (empty or blank) all nine values are 0.0,
as EvalScope reports. ROUGE-1/2 are the library's own `rouge_n`; ROUGE-L is its
`rouge_l_summary_level` formula with the LCS length from `_lcs.lcs_length` (the library's table
takes memory quadratic in the tokens). A side of more than `MAX_SCORED_CHARACTERS` characters
(checked first, untokenised) or `MAX_SCORED_TOKENS` tokens (NLTK's or the ROUGE words, whichever
are more) is not scored: `length_error` answers an `input_too_long` error naming the field.

NLTK's English punkt tables ship inside this package (`nltk_data/`), because NLTK cannot
download them on machines without network access; a missing table raises instead of quietly
scoring 0 as EvalScope does.
"""

import logging
import warnings
from pathlib import Path

import jieba
import nltk
from nltk.translate.bleu_score import sentence_bleu
from rouge_chinese import Rouge
from rouge_chinese.rouge_score import _split_into_words, rouge_n

from app.metrics._lcs import (
    chunks_past_cap,
    lcs_length,
    scored,
    too_long,
    too_many_characters,
)
from app.metrics._types import MetricError

NLTK_DATA = Path(__file__).resolve().parent / "nltk_data"
if str(NLTK_DATA) not in nltk.data.path:
    nltk.data.path.insert(0, str(NLTK_DATA))
# jieba announces its dictionary loading on stderr at INFO.
jieba.setLogLevel(logging.WARNING)

BLEU_KEYS = ("bleu-1", "bleu-2", "bleu-3", "bleu-4")
ROUGE_KEYS = tuple(f"Rouge-{n}-{s}" for n in ("1", "2", "L") for s in ("R", "P", "F"))
_WEIGHTS = ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1))
_rouge = Rouge()


def has_cjk(text: str) -> bool:
    return any("\u4e00" <= char <= "\u9fa5" for char in text)


def bleu_tokens(text: str) -> list[str]:
    return jieba.lcut(text) if has_cjk(text) else nltk.word_tokenize(text)


def bleu_scores(prediction: str, reference: str) -> dict[str, float]:
    """bleu-1..4 of a prediction against one reference."""
    hypothesis, references = bleu_tokens(prediction), [bleu_tokens(reference)]
    if not hypothesis or not references[0]:
        return dict.fromkeys(BLEU_KEYS, 0.0)
    with warnings.catch_warnings():
        # NLTK warns on zero n-gram overlaps; EvalScope's value is what it returns anyway.
        warnings.simplefilter("ignore", UserWarning)
        return {
            key: float(sentence_bleu(references, hypothesis, weights=weights))
            for key, weights in zip(BLEU_KEYS, _WEIGHTS, strict=True)
        }


def _rouge_text(text: str) -> str:
    return " ".join(jieba.cut(text)) if has_cjk(text) else text


def _sentences(text: str) -> list[str]:
    # rouge_chinese's own preparation of a hypothesis or reference (Rouge._get_scores).
    return [" ".join(part.split()) for part in _rouge.cut_sent(_rouge_text(text)) if len(part) > 0]


def _rouge_l(hypothesis: list[str], reference: list[str]) -> dict[str, float]:
    # rouge_chinese.rouge_score.rouge_l_summary_level, with a linear-memory LCS.
    reference_words, hypothesis_words = _split_into_words(reference), _split_into_words(hypothesis)
    llcs = lcs_length(reference_words, hypothesis_words)
    r_lcs, p_lcs = llcs / len(reference_words), llcs / len(hypothesis_words)
    f_lcs = 2.0 * ((p_lcs * r_lcs) / (p_lcs + r_lcs + 1e-8))
    return {"f": f_lcs, "p": p_lcs, "r": r_lcs}


def rouge_scores(prediction: str, reference: str) -> dict[str, float]:
    """The nine ROUGE values of a prediction against a reference (rouge_chinese semantics)."""
    hypothesis, references = _sentences(prediction), _sentences(reference)
    if not hypothesis or not references:
        # rouge_chinese refuses an empty or blank hypothesis or reference; EvalScope catches
        # the error and reports all nine values as 0.0.
        return dict.fromkeys(ROUGE_KEYS, 0.0)
    scores = {
        "1": rouge_n(hypothesis, references, 1, exclusive=_rouge.exclusive),
        "2": rouge_n(hypothesis, references, 2, exclusive=_rouge.exclusive),
        "l": _rouge_l(hypothesis, references),
    }
    return {
        f"Rouge-{n.upper()}-{s.upper()}": float(scores[n][s])
        for n in ("1", "2", "l")
        for s in ("r", "p", "f")
    }


def length_error(prediction: str, reference: str) -> MetricError | None:
    """`input_too_long` naming the first side with more characters than MAX_SCORED_CHARACTERS
    or more tokens than MAX_SCORED_TOKENS."""
    over = too_many_characters(
        "BLEU and ROUGE", {"actual_output": prediction, "expected_output": reference}
    )
    if over is not None:
        return over
    sides: dict[str, list[str]] = {}
    for field, text in (("actual_output", prediction), ("expected_output", reference)):
        chunks = chunks_past_cap(text)
        if chunks is not None:
            sides[field] = chunks
            continue
        tokens, words = bleu_tokens(text), _split_into_words(_sentences(text))
        sides[field] = tokens if len(tokens) >= len(words) else words
    return too_long("BLEU and ROUGE", sides)


def text_scores(prediction: str, reference: str) -> dict[str, float]:
    """Every per-sample key EvalScope reports for General-VQA rule scoring."""
    return {**bleu_scores(prediction, reference), **rouge_scores(prediction, reference)}


async def shared_text_scores(
    shared: dict[object, object], prediction: str, reference: str
) -> dict[str, float] | MetricError:
    """text_scores, or the error of a side past a cap, once per job for each pair (long pairs
    off the judge loop)."""
    key = ("text_scores", prediction, reference)
    scores = shared.get(key)
    if scores is None:
        scores = shared[key] = await scored(
            lambda: length_error(prediction, reference) or text_scores(prediction, reference),
            prediction,
            reference,
        )
    return scores  # type: ignore[return-value]
