"""EvalScope 1.14.1's per-sample BLEU-1..4 and ROUGE-{1,2,L}-{R,P,F}, numerically identical.

BLEU: each string tokenised on its own (jieba for text with CJK ideographs, else NLTK's
`word_tokenize`), case-sensitive, then NLTK `sentence_bleu` with individual n-gram weights and
no smoothing. ROUGE: `rouge_chinese.Rouge()` on the strings (CJK text jieba-cut and re-joined
with spaces); where the library refuses a string (empty or blank) all nine values are 0.0,
as EvalScope reports.

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


def rouge_scores(prediction: str, reference: str) -> dict[str, float]:
    """The nine ROUGE values of a prediction against a reference (rouge_chinese semantics)."""
    try:
        scores = _rouge.get_scores(_rouge_text(prediction), _rouge_text(reference))[0]
    except ValueError:
        # rouge_chinese refuses an empty or blank hypothesis or reference; EvalScope catches
        # the error and reports all nine values as 0.0.
        return dict.fromkeys(ROUGE_KEYS, 0.0)
    return {
        f"Rouge-{n.upper()}-{s.upper()}": float(scores[f"rouge-{n}"][s])
        for n in ("1", "2", "l")
        for s in ("r", "p", "f")
    }


def text_scores(prediction: str, reference: str) -> dict[str, float]:
    """Every per-sample key EvalScope reports for General-VQA rule scoring."""
    return {**bleu_scores(prediction, reference), **rouge_scores(prediction, reference)}


def shared_text_scores(
    shared: dict[object, object], prediction: str, reference: str
) -> dict[str, float]:
    """text_scores, computed once per job for every metric that needs the same pair."""
    key = ("text_scores", prediction, reference)
    scores = shared.get(key)
    if scores is None:
        scores = shared[key] = text_scores(prediction, reference)
    return scores  # type: ignore[return-value]
