"""bleu and rouge: per-sample values equal EvalScope 1.14.1's library calls."""

import asyncio
import math

import jieba
import nltk
import pytest
from nltk.translate.bleu_score import sentence_bleu
from rouge_chinese import Rouge

from app.metrics import MetricContext, MetricTestCase, measure, parse_spec
from app.metrics._text_scores import BLEU_KEYS, NLTK_DATA, ROUGE_KEYS, text_scores

# (prediction, reference): English, Chinese, mixed, punctuation, case, repeats, long, empty.
CASES = [
    ("the cat sat", "the cat sat on the mat"),
    ("The cat sat on the mat.", "the cat sat on the mat"),
    ("A red circle on a white background.", "A red circle."),
    ("It's a dog, isn't it?", "It is a dog."),
    ('He said "hello" twice: hello, hello.', "He said hello."),
    ("the the the the", "the cat"),
    ("猫坐在垫子上。", "猫坐在垫子上了。"),
    ("图片中是一个红色的圆形。", "一个红色圆形"),
    ("这是 a red 圆形", "a red circle"),
    ("blue square", "red circle"),
    (" ".join(["word"] * 50 + ["end"]), " ".join(["word"] * 60)),
    ("A detailed answer " * 40, "A detailed answer"),
    # Case: no lower-casing on either side.
    ("Cat", "cat"),
    ("The Cat sat.", "the cat sat."),
    # Empty and whitespace-only strings (ROUGE's library refuses them).
    ("", "x"),
    ("x", ""),
    ("", ""),
    ("   ", "x"),
    ("x", " \t\n "),
    # Punctuation only: NLTK splits it into tokens, ROUGE keeps it glued.
    ("...", "x"),
    ("x", "..."),
    ("!?", "!?"),
    ("?!", "!?"),
    ("。", "。。"),
    # Spaces around Chinese text are jieba tokens for BLEU.
    (" 猫坐在垫子上 ", "猫坐在垫子上"),
    ("猫坐在垫子上", "  猫坐在垫子上。 "),
]


def evalscope_bleu(prediction: str, reference: str) -> list[float]:
    def tokens(text: str) -> list[str]:
        if any("\u4e00" <= c <= "\u9fa5" for c in text):
            return list(jieba.cut(text))
        return nltk.word_tokenize(text)

    weights = [(1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)]
    return [sentence_bleu([tokens(reference)], tokens(prediction), weights=w) for w in weights]


def evalscope_rouge(prediction: str, reference: str) -> list[float]:
    def prepared(text: str) -> str:
        if any("\u4e00" <= c <= "\u9fa5" for c in text):
            return " ".join(jieba.cut(text))
        return text

    try:
        scores = Rouge().get_scores(prepared(prediction), prepared(reference))[0]
    except Exception:
        # EvalScope catches whatever the library raises and reports every ROUGE value as 0.0.
        return [0.0] * 9
    return [scores[f"rouge-{n}"][s] for n in ("1", "2", "l") for s in ("r", "p", "f")]


class TestParity:
    @pytest.mark.filterwarnings("ignore::UserWarning")
    @pytest.mark.parametrize(("prediction", "reference"), CASES)
    def test_equal_to_evalscope_calls(self, prediction: str, reference: str) -> None:
        ours = text_scores(prediction, reference)
        assert [ours[k] for k in BLEU_KEYS] == evalscope_bleu(prediction, reference)
        assert [ours[k] for k in ROUGE_KEYS] == evalscope_rouge(prediction, reference)

    def test_hand_computed_values(self) -> None:
        ours = text_scores("the cat sat", "the cat sat on the mat")
        # All three unigrams match; brevity penalty exp(1 - 6/3).
        assert ours["bleu-1"] == pytest.approx(math.exp(-1))
        # No 4-gram in a 3-token hypothesis: NLTK's smallest-float stand-in, not 0.
        assert 0 < ours["bleu-4"] < 1e-300
        # ROUGE-1 on unique unigram sets: {the, cat, sat} ⊂ {the, cat, sat, on, mat}.
        assert (ours["Rouge-1-R"], ours["Rouge-1-P"]) == (0.6, 1.0)
        # ROUGE-L: LCS 3 over the 6 reference tokens (duplicates count).
        assert ours["Rouge-L-R"] == 0.5
        # Punctuation stays glued to words for ROUGE: "mat." is not "mat".
        assert text_scores("the mat.", "the mat")["Rouge-1-R"] == 0.5

    def test_case_sensitive(self) -> None:
        assert text_scores("Cat", "cat")["bleu-1"] == 0.0
        assert text_scores("Cat", "cat")["Rouge-1-R"] == 0.0

    @pytest.mark.parametrize(
        ("prediction", "reference"), [("", "a cat"), ("a cat", ""), ("  ", "x")]
    )
    def test_empty_strings_score_zero(self, prediction: str, reference: str) -> None:
        assert set(text_scores(prediction, reference).values()) == {0.0}

    def test_punkt_comes_from_the_shipped_copy(self) -> None:
        found = nltk.data.find("tokenizers/punkt_tab/english/")
        assert str(found).startswith(str(NLTK_DATA))
        # A BLEU that silently dropped to 0 would hide a missing table: this one must not.
        assert text_scores("Dr. Smith arrived.", "Dr. Smith arrived.")["bleu-1"] == 1.0


def result(spec: dict, actual: str, expected: str):
    case = MetricTestCase(index=0, id="0", actual_output=actual, expected_output=expected)
    return asyncio.run(measure(parse_spec(spec), case, MetricContext(evaluation_id="eval_x")))


class TestMetrics:
    def test_bleu_n_picks_the_order_and_logs_every_key(self) -> None:
        for n in (1, 2, 3, 4):
            r = result({"type": "bleu", "n": n}, "the cat sat on the mat", "the cat sat on a mat")
            assert r.score == r.logs[f"bleu-{n}"]
            assert set(r.logs) == set(BLEU_KEYS) | set(ROUGE_KEYS)
        assert result({"type": "bleu"}, "same words", "same words").passed is True

    @pytest.mark.parametrize(
        ("variant", "statistic"), [("1", "r"), ("2", "p"), ("l", "f"), ("l", "r")]
    )
    def test_rouge_variant_and_statistic(self, variant: str, statistic: str) -> None:
        r = result(
            {"type": "rouge", "variant": variant, "statistic": statistic}, "a b c d", "a b x d"
        )
        assert r.score == r.logs[f"Rouge-{variant.upper()}-{statistic.upper()}"]

    def test_rouge_default_is_l_recall(self) -> None:
        r = result({"type": "rouge"}, "the cat sat", "the cat sat on the mat")
        assert r.score == 0.5 and "ROUGE-L recall" in r.reason
