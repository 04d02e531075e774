"""The reference-based scores of OpenAI's `text_similarity` grader, each in [0, 1].

Which definition each follows (docs/decisions.md says why):
- `fuzzy_match`: rapidfuzz `fuzz.WRatio(input, reference, processor=utils.default_process)/100`,
  OpenAI's own example.
- `bleu`: NLTK `sentence_bleu`, cumulative BLEU-4 (uniform weights, no smoothing), over the
  tokens of Loupe's EvalScope BLEU (`_text_scores.bleu_tokens`: NLTK `word_tokenize`, jieba for
  CJK text). EvalScope reports individual BLEU-n only, so the weights are not shared.
- `gleu`: NLTK `sentence_gleu` (Google BLEU, 1- to 4-grams) over the same tokens.
- `meteor`: NLTK `meteor_score` (its defaults: lower-cased, Porter stems, WordNet 3.0 synonyms)
  over the same tokens, with the WordNet shipped in `nltk_data/corpora/wordnet.zip`.
- `rouge_1`..`rouge_5`, `rouge_l`: Google's `rouge-score` F-measure (no stemming), its default
  tokeniser's rule (lower-cased runs of letters and digits) for the letters and digits of
  every script, where the library keeps only ASCII ones (Cyrillic or Hangul text lost every
  word); text with CJK ideographs is jieba-cut instead. `rouge_l` is the library's
  `_score_lcs` formula with the LCS length from `_lcs.lcs_length` (the library's table is
  quadratic in memory).

Every metric but `fuzzy_match` scores tokens: `length_error` refuses a side of more than
`MAX_SCORED_TOKENS` of the metric's tokens, or for `fuzzy_match` more than
`MAX_FUZZY_CHARACTERS` characters.
"""

import threading
import unicodedata
import warnings
from typing import Any

import jieba
from nltk.corpus.reader.wordnet import WordNetCorpusReader
from nltk.data import ZipFilePathPointer
from nltk.translate.bleu_score import sentence_bleu
from nltk.translate.gleu_score import sentence_gleu
from nltk.translate.meteor_score import meteor_score
from rapidfuzz import fuzz, utils
from rouge_score import rouge_scorer, scoring, tokenizers

from app.metrics._lcs import chunks_past_cap, lcs_length, too_long, too_many_characters
from app.metrics._text_scores import NLTK_DATA, bleu_tokens, has_cjk
from app.metrics._types import MetricError

ROUGE_METRICS = {f"rouge_{n}": f"rouge{n}" for n in range(1, 6)} | {"rouge_l": "rougeL"}
REFERENCE_METRICS = ("fuzzy_match", "bleu", "gleu", "meteor", *ROUGE_METRICS)


class _WordNet30(WordNetCorpusReader):
    def map_wn(self, version: str = "wordnet") -> None:
        # The shipped database is WordNet 3.0 itself: nothing to map to 3.0 (NLTK would read
        # index.sense, which is not shipped, to build an identity mapping).
        return None


_wordnet: WordNetCorpusReader | None = None
_wordnet_lock = threading.Lock()


def wordnet() -> WordNetCorpusReader:
    """The shipped WordNet 3.0, loaded on first use (about a second) and kept."""
    global _wordnet
    with _wordnet_lock:
        if _wordnet is None:
            root = ZipFilePathPointer(str(NLTK_DATA / "corpora" / "wordnet.zip"), "wordnet/")
            with warnings.catch_warnings():
                # "The multilingual functions are not available": no OMW is wanted.
                warnings.simplefilter("ignore", UserWarning)
                _wordnet = _WordNet30(root, None)
        return _wordnet


def _word_tokens(text: str) -> list[str]:
    """rouge-score's tokens (lower-cased runs of letters and digits) with every script's
    letters, digits and combining marks, not only ASCII's: its own tokeniser left nothing of
    Cyrillic, Greek, Hangul or Arabic text (identical answers scored 0) and cut `café` to
    `caf`. On ASCII text the tokens are rouge-score's."""
    words: list[str] = []
    current: list[str] = []
    for char in unicodedata.normalize("NFC", text.lower()):
        if unicodedata.category(char)[0] in "LMN":
            current.append(char)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return words


class _RougeTokenizer(tokenizers.Tokenizer):
    """rouge-score's tokeniser for every script: CJK text is jieba-cut, other text split into
    runs of letters and digits of any script (rouge-score keeps only ASCII ones)."""

    def tokenize(self, text: str) -> list[str]:
        if has_cjk(text):
            return [t.lower() for t in jieba.cut(text) if any(ch.isalnum() for ch in t)]
        return _word_tokens(text)


# WRatio's partial_ratio (sides 1.5 times apart or more) grows about as the cube of the
# shorter side: 4,000 against 40,000 characters took 1.3 s, 10,000 against 30,000 took 17 s.
MAX_FUZZY_CHARACTERS = 4096

_tokenizer = _RougeTokenizer()
_rouge = {
    metric: rouge_scorer.RougeScorer([key], tokenizer=_tokenizer)
    for metric, key in ROUGE_METRICS.items()
}


def fuzzy_match(text: str, reference: str) -> float:
    return fuzz.WRatio(text, reference, processor=utils.default_process) / 100


def bleu(text: str, reference: str) -> float:
    hypothesis, ref = bleu_tokens(text), bleu_tokens(reference)
    if not hypothesis or not ref:
        return 0.0
    with warnings.catch_warnings():
        # NLTK warns on zero higher-order overlaps and returns (nearly) 0, which is BLEU.
        warnings.simplefilter("ignore", UserWarning)
        return float(sentence_bleu([ref], hypothesis))


def gleu(text: str, reference: str) -> float:
    hypothesis, ref = bleu_tokens(text), bleu_tokens(reference)
    if not hypothesis or not ref:
        return 0.0
    return float(sentence_gleu([ref], hypothesis))


def meteor(text: str, reference: str) -> float:
    hypothesis, ref = bleu_tokens(text), bleu_tokens(reference)
    if not hypothesis or not ref:
        return 0.0
    return float(meteor_score([ref], hypothesis, wordnet=wordnet()))


def rouge_l(text: str, reference: str) -> float:
    """rouge-score's rougeL F-measure (`_score_lcs`), its LCS in linear memory."""
    target, prediction = _tokenizer.tokenize(reference), _tokenizer.tokenize(text)
    if not target or not prediction:
        return 0.0
    lcs = lcs_length(target, prediction)
    return float(scoring.fmeasure(lcs / len(prediction), lcs / len(target)))


def rouge(metric: str, text: str, reference: str) -> float:
    """ROUGE F-measure; `metric` is `rouge_1`..`rouge_5` or `rouge_l`."""
    if metric == "rouge_l":
        return rouge_l(text, reference)
    return float(_rouge[metric].score(reference, text)[ROUGE_METRICS[metric]].fmeasure)


def length_error(metric: str, text: str, reference: str) -> MetricError | None:
    """`input_too_long` when `input` or `reference` has more characters (MAX_SCORED_CHARACTERS,
    checked untokenised) or tokens than `metric` scores."""
    if metric == "fuzzy_match":
        sides = {"input": text, "reference": reference}
        return too_long(metric, sides, MAX_FUZZY_CHARACTERS, "characters")
    over = too_many_characters(metric, {"input": text, "reference": reference})
    if over is not None:
        return over
    tokenize = _tokenizer.tokenize if metric in ROUGE_METRICS else bleu_tokens
    sides = {
        field: chunks_past_cap(side, words_only=metric in ROUGE_METRICS) or tokenize(side)
        for field, side in (("input", text), ("reference", reference))
    }
    return too_long(metric, sides)


def reference_score(metric: str, text: str, reference: str) -> float:
    """One reference-based score of `text` against `reference`."""
    scorers: dict[str, Any] = {"fuzzy_match": fuzzy_match, "bleu": bleu, "gleu": gleu}
    if metric in scorers:
        return scorers[metric](text, reference)
    if metric == "meteor":
        return meteor(text, reference)
    return rouge(metric, text, reference)
