"""text_similarity: each metric against the library it follows, and hand-computed values."""

import math
from collections import Counter

import nltk
import pytest
from nltk.translate.bleu_score import sentence_bleu
from nltk.translate.gleu_score import sentence_gleu
from pydantic import ValidationError
from rapidfuzz import fuzz, utils
from rouge_score import rouge_scorer

from app.metrics import MetricResult, parse_spec
from app.metrics._text_scores import NLTK_DATA
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.fixtures.metrics import case, run_metric

PAIRS = [
    ("the cat sat on a mat", "the cat sat on the mat"),
    ("The cat, sat on the MAT!", "the cat sat on the mat"),
    ("A red circle on a white background.", "A red circle."),
    ("It's a dog, isn't it?", "It is a dog."),
    ("blue square", "red circle"),
    ("the the the the", "the cat"),
]


def spec(metric: str, threshold: float = 0.5) -> dict:
    return {
        "type": "text_similarity",
        "name": f"{metric}-id",
        "input": "{{ sample.output_text }}",
        "reference": "{{ item.reference }}",
        "evaluation_metric": metric,
        "pass_threshold": threshold,
    }


def row(output: str, reference: str):
    return case(
        input=[], metadata={"item": {"reference": reference}, "sample": {"output_text": output}}
    )


def score(judge: ScriptedJudge, metric: str, output: str, reference: str, **kw) -> MetricResult:
    result = run_metric(judge, spec(metric, **kw), row(output, reference))
    assert result.error is None, result.error
    return result


def tokens(text: str) -> list[str]:
    if str(NLTK_DATA) not in nltk.data.path:
        nltk.data.path.insert(0, str(NLTK_DATA))
    return nltk.word_tokenize(text)


class TestAgainstTheLibraries:
    @pytest.mark.parametrize(("output", "reference"), PAIRS)
    def test_fuzzy_match_is_wratio(self, judge: ScriptedJudge, output: str, reference: str) -> None:
        expected = fuzz.WRatio(output, reference, processor=utils.default_process) / 100
        assert score(judge, "fuzzy_match", output, reference).score == pytest.approx(expected)

    # NLTK warns that BLEU is (nearly) 0 without higher-order overlaps; that is the value.
    @pytest.mark.filterwarnings("ignore::UserWarning")
    @pytest.mark.parametrize(("output", "reference"), PAIRS)
    def test_bleu_is_nltk_sentence_bleu(
        self, judge: ScriptedJudge, output: str, reference: str
    ) -> None:
        expected = sentence_bleu([tokens(reference)], tokens(output))
        assert score(judge, "bleu", output, reference).score == pytest.approx(expected)

    @pytest.mark.parametrize(("output", "reference"), PAIRS)
    def test_gleu_is_nltk_sentence_gleu(
        self, judge: ScriptedJudge, output: str, reference: str
    ) -> None:
        expected = sentence_gleu([tokens(reference)], tokens(output))
        assert score(judge, "gleu", output, reference).score == pytest.approx(expected)

    @pytest.mark.parametrize("n", ["1", "2", "3", "4", "5", "L"])
    @pytest.mark.parametrize(("output", "reference"), PAIRS)
    def test_rouge_is_rouge_score_f_measure(
        self, judge: ScriptedJudge, n: str, output: str, reference: str
    ) -> None:
        key = f"rouge{n}"
        expected = rouge_scorer.RougeScorer([key]).score(reference, output)[key].fmeasure
        result = score(judge, f"rouge_{n.lower()}", output, reference)
        assert result.score == pytest.approx(expected)


class TestHandComputed:
    """`the cat sat on a mat` against `the cat sat on the mat`: 6 tokens each; matching
    1- to 4-grams 5/6, 3/5, 2/4, 1/3 (and no 5-gram); LCS 5."""

    OUT, REF = PAIRS[0]

    def test_bleu(self, judge: ScriptedJudge) -> None:
        expected = (5 / 6 * 3 / 5 * 2 / 4 * 1 / 3) ** (1 / 4)  # brevity penalty 1
        assert score(judge, "bleu", self.OUT, self.REF).score == pytest.approx(expected)

    def test_gleu(self, judge: ScriptedJudge) -> None:
        # min(precision, recall) over every 1..4-gram: 11 of 18 each way.
        assert score(judge, "gleu", self.OUT, self.REF).score == pytest.approx(11 / 18)

    @pytest.mark.parametrize(
        ("metric", "expected"),
        [
            ("rouge_1", 5 / 6),
            ("rouge_2", 3 / 5),
            ("rouge_3", 2 / 4),
            ("rouge_4", 1 / 3),
            ("rouge_5", 0.0),
            ("rouge_l", 5 / 6),
        ],
    )
    def test_rouge(self, judge: ScriptedJudge, metric: str, expected: float) -> None:
        assert score(judge, metric, self.OUT, self.REF).score == pytest.approx(expected)

    def test_meteor_on_nltks_documented_example(self, judge: ScriptedJudge) -> None:
        # NLTK's meteor_score docstring: round(meteor_score([reference1], hypothesis1), 4)
        # is 0.6944; it needs WordNet (`obeys`/`heed`), which Loupe ships.
        hypothesis = (
            "It is a guide to action which ensures that the military always obeys the "
            "commands of the party"
        )
        reference = (
            "It is a guide to action that ensures that the military will forever heed Party "
            "commands"
        )
        assert round(score(judge, "meteor", hypothesis, reference).score, 4) == 0.6944

    def test_meteor_identical_and_disjoint(self, judge: ScriptedJudge) -> None:
        # 3 matched unigrams in one chunk: F-mean 1, penalty 0.5 * (1/3)^3.
        assert score(judge, "meteor", "the cat sat", "the cat sat").score == pytest.approx(
            1 - 0.5 * (1 / 3) ** 3
        )
        assert score(judge, "meteor", "blue square", "red circle").score == 0.0

    def test_rouge_keeps_cjk_words(self, judge: ScriptedJudge) -> None:
        # rouge-score's own tokeniser drops CJK text entirely (every score 0).
        assert (
            rouge_scorer.RougeScorer(["rouge1"])
            .score("猫坐在垫子上", "猫坐在垫子上")["rouge1"]
            .fmeasure
            == 0
        )
        assert score(judge, "rouge_1", "猫坐在垫子上", "猫坐在垫子上").score == 1.0

    @pytest.mark.parametrize("metric", ["rouge_1", "rouge_2", "rouge_l"])
    def test_rouge_keeps_the_words_of_every_script(self, judge: ScriptedJudge, metric) -> None:
        # rouge-score's tokeniser keeps only ASCII letters and digits: identical Russian or
        # Korean answers scored 0, as if nothing matched.
        for text in ("Кошка сидит на ковре", "고양이가 매트 위에 앉아 있다", "Η γάτα κάθεται"):
            assert score(judge, metric, text, text).score == pytest.approx(1.0), text
        # Counted as words: 3 of 4 Russian words (and 1 of 3 bigrams) match.
        half = score(judge, metric, "Кошка сидит на ковре", "Кошка сидела на ковре").score
        assert half == pytest.approx({"rouge_2": 1 / 3}.get(metric, 3 / 4))
        # Accented letters stay in their word (rouge-score read `café` as `caf`).
        assert score(judge, metric, "Café crème", "CAFÉ CRÈME").score == pytest.approx(1.0)
        assert score(judge, "rouge_1", "café", "caf").score == 0.0


class TestPassing:
    def test_threshold_is_pass_threshold(self, judge: ScriptedJudge) -> None:
        at = score(
            judge, "rouge_1", "the cat sat on a mat", "the cat sat on the mat", threshold=5 / 6
        )
        assert (at.passed, at.threshold) == (True, 5 / 6)
        above = score(
            judge, "rouge_1", "the cat sat on a mat", "the cat sat on the mat", threshold=0.9
        )
        assert above.passed is False and "< pass_threshold 0.9" in above.reason

    def test_pass_threshold_is_required(self) -> None:
        raw = spec("bleu")
        del raw["pass_threshold"]
        with pytest.raises(ValidationError):
            parse_spec(raw)

    def test_every_sdk_metric_is_accepted(self) -> None:
        for metric in [
            "cosine",
            "fuzzy_match",
            "bleu",
            "gleu",
            "meteor",
            "rouge_1",
            "rouge_2",
            "rouge_3",
            "rouge_4",
            "rouge_5",
            "rouge_l",
        ]:
            assert parse_spec(spec(metric)).evaluation_metric == metric
        with pytest.raises(ValidationError):
            parse_spec(spec("rouge_6"))

    def test_missing_path(self, judge: ScriptedJudge) -> None:
        result = run_metric(judge, {**spec("bleu"), "reference": "{{ item.ref }}"}, row("a", "b"))
        assert result.error.type == "template_variable_missing" and result.score is None


def letter_cosine(a: str, b: str) -> float:
    ca, cb = (
        Counter(c for c in a.lower() if c.isalpha()),
        Counter(c for c in b.lower() if c.isalpha()),
    )
    dot = sum(ca[c] * cb[c] for c in ca)
    return dot / (
        math.sqrt(sum(v * v for v in ca.values())) * math.sqrt(sum(v * v for v in cb.values()))
    )


class TestCosine:
    def test_cosine_of_the_endpoints_embeddings(self, judge: ScriptedJudge) -> None:
        result = score(judge, "cosine", "a red circle", "the red square")
        # The scripted endpoint embeds a text as its letter counts.
        assert result.score == pytest.approx(letter_cosine("a red circle", "the red square"))
        (request,) = judge.embedding_requests
        assert request["input"] == ["a red circle", "the red square"]
        assert request["model"] == "text-embedding-3-large"
        assert result.logs["embedding_model"] == "text-embedding-3-large"
        assert result.usage.calls == 1 and result.usage.prompt_tokens == 6
        assert judge.requests == []

    def test_negative_cosine_counts_as_zero(self, judge: ScriptedJudge) -> None:
        judge.script_embeddings(lambda request: [[1.0, 0.0], [-1.0, 0.0]])
        result = score(judge, "cosine", "yes", "no")
        assert (result.score, result.passed) == (0.0, False)
        assert result.logs["cosine"] == -1.0

    def test_endpoint_failure_is_an_error(self, judge: ScriptedJudge) -> None:
        judge.script_embeddings(lambda request: Reply(status=500))
        result = run_metric(judge, spec("cosine"), row("a", "b"), max_attempts=2)
        assert result.score is None and result.error.type == "judge_server_error"
        assert len(judge.embedding_requests) == 2

    def test_malformed_reply_is_an_error(self, judge: ScriptedJudge) -> None:
        judge.script_embeddings(lambda request: [[1.0]])
        result = run_metric(judge, spec("cosine"), row("a", "b"))
        assert result.error.type == "judge_error"

    def test_empty_text_is_an_error_without_a_call(self, judge: ScriptedJudge) -> None:
        result = run_metric(judge, spec("cosine"), row("", "b"))
        assert result.error.type == "empty_text" and judge.embedding_requests == []
