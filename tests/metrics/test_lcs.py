"""ROUGE-L's linear-memory LCS gives the libraries' numbers; sides past the token cap are errors."""

import random

import jieba
import nltk
import pytest
from rouge_chinese.rouge_score import _len_lcs
from rouge_score import rouge_scorer

from app.metrics._lcs import MAX_SCORED_CHARACTERS, MAX_SCORED_TOKENS, lcs_length
from app.metrics._similarity import MAX_FUZZY_CHARACTERS, _tokenizer, rouge
from app.metrics._text_scores import ROUGE_KEYS, text_scores
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.metrics import run_metric
from tests.metrics.test_bleu_rouge import evalscope_rouge, result
from tests.metrics.test_text_similarity import row, spec

# Words, repeats, case, punctuation glued and alone, sentence ends rouge_chinese cuts on,
# ellipses, blanks and newlines, and Chinese (jieba-cut).
PIECES = [
    "a",
    "b",
    "ab",
    "A",
    "cat",
    "cat.",
    "the",
    "?",
    "!",
    "。",
    "……",
    "......",
    "x,y",
    " ",
    "  ",
    "\n",
    "\t",
    "猫坐在垫子上",
    "一个红色",
    "圆形。",
    "don't",
    "”",
    "12",
]


def random_text(rng: random.Random) -> str:
    return "".join(
        rng.choice(PIECES) + rng.choice(["", " ", " ", "\n"]) for _ in range(rng.randrange(40))
    )


class TestLcsLength:
    def test_equal_to_the_library_table(self) -> None:
        rng = random.Random(23)
        for _ in range(500):
            x = [rng.choice("abcde") for _ in range(rng.randrange(30))]
            y = [rng.choice("abcde") for _ in range(rng.randrange(30))]
            assert lcs_length(x, y) == _len_lcs(x, y)

    def test_tokens_compare_by_equality_not_hash(self) -> None:
        # -1 and -2 share a hash in CPython: mapped to ids, they still differ.
        assert lcs_length([-1, "a"], [-2, "a"]) == 1
        assert lcs_length([], ["a"]) == 0

    def test_ten_thousand_tokens_a_side(self) -> None:
        rng = random.Random(5)
        x = [rng.choice(["ab", "cd", "ef"]) for _ in range(10_000)]
        assert lcs_length(x, x) == 10_000


class TestRougeParity:
    def test_rouge_chinese_on_random_texts(self) -> None:
        rng = random.Random(1)
        for _ in range(400):
            prediction, reference = random_text(rng), random_text(rng)
            ours = text_scores(prediction, reference)
            assert [ours[k] for k in ROUGE_KEYS] == evalscope_rouge(prediction, reference), (
                prediction,
                reference,
            )

    def test_rouge_score_rouge_l_on_random_texts(self) -> None:
        rng = random.Random(2)
        library = rouge_scorer.RougeScorer(["rougeL"], tokenizer=_tokenizer)
        for _ in range(400):
            text, reference = random_text(rng), random_text(rng)
            expected = library.score(reference, text)["rougeL"].fmeasure
            assert rouge("rouge_l", text, reference) == expected, (text, reference)


def words(count: int) -> str:
    return " ".join(["ab", "cd", "ef", "gh"][i % 4] for i in range(count))


class TestTokenCap:
    @pytest.mark.parametrize("metric", ["rouge", "bleu"])
    def test_past_the_cap_is_an_error_naming_the_field(self, metric: str) -> None:
        r = result({"type": metric}, "ab cd", words(MAX_SCORED_TOKENS + 1))
        assert r.score is None and r.error is not None
        assert r.error.type == "input_too_long"
        assert r.error.message.startswith(
            f"expected_output has {MAX_SCORED_TOKENS + 1:,} tokens, over the BLEU and ROUGE cap"
        )
        assert f"cap of {MAX_SCORED_TOKENS:,} tokens a side" in r.error.message

    def test_at_the_cap_is_scored(self) -> None:
        r = result({"type": "rouge"}, words(MAX_SCORED_TOKENS), words(MAX_SCORED_TOKENS))
        assert r.error is None and r.score == 1.0

    @pytest.mark.parametrize("metric", ["rouge_l", "rouge_2", "meteor", "bleu", "gleu"])
    def test_text_similarity_past_the_cap(self, judge: ScriptedJudge, metric: str) -> None:
        r = run_metric(judge, spec(metric), row(words(10_000), "ab cd"))
        assert r.score is None and r.error is not None
        assert r.error.type == "input_too_long"
        assert r.error.message.startswith(
            f"input has 10,000 tokens, over the {metric} cap of {MAX_SCORED_TOKENS:,}"
        )

    @pytest.mark.parametrize("metric", [{"type": "bleu"}, "bleu", "rouge_l"], ids=str)
    def test_a_long_side_is_refused_without_tokenising_it(
        self, judge: ScriptedJudge, monkeypatch: pytest.MonkeyPatch, metric
    ) -> None:
        # Its whitespace chunks are past the cap already: NLTK and jieba spent 3.5 s of the
        # judge loop on 900 kB before answering input_too_long.
        tokenised: list[int] = []
        for module, name in ((nltk, "word_tokenize"), (jieba, "cut"), (jieba, "lcut")):
            original = getattr(module, name)
            monkeypatch.setattr(
                module,
                name,
                lambda text, *a, _f=original, **k: tokenised.append(len(text)) or _f(text, *a, **k),
            )
        # Chinese, so every metric's tokeniser is jieba; "……" is no ROUGE word.
        long_text = " ".join(["猫", "狗"] * 10_000) + " ……"
        if isinstance(metric, dict):
            r = result(metric, long_text, "ab cd")
        else:
            r = run_metric(judge, spec(metric), row(long_text, "ab cd"))
        assert r.error is not None and r.error.type == "input_too_long"
        count = 20_000 if metric == "rouge_l" else 20_001
        assert r.error.message.startswith(
            f"{'input' if isinstance(metric, str) else 'actual_output'} has {count:,} tokens"
        )
        assert all(length < 100 for length in tokenised), tokenised

    @pytest.mark.parametrize("metric", [{"type": "rouge"}, "bleu", "rouge_l"], ids=str)
    def test_a_side_past_the_character_cap_is_refused_untokenised(
        self, judge: ScriptedJudge, monkeypatch: pytest.MonkeyPatch, metric
    ) -> None:
        # Chinese has no spaces to count: a million characters held the judge loop for a
        # minute in jieba before the token cap refused them.
        tokenised: list[int] = []
        for module, name in ((nltk, "word_tokenize"), (jieba, "cut"), (jieba, "lcut")):
            original = getattr(module, name)
            monkeypatch.setattr(
                module,
                name,
                lambda text, *a, _f=original, **k: tokenised.append(len(text)) or _f(text, *a, **k),
            )
        long_text = "猫狗" * (MAX_SCORED_CHARACTERS // 2 + 1)
        if isinstance(metric, dict):
            r = result(metric, long_text, "ab cd")
        else:
            r = run_metric(judge, spec(metric), row(long_text, "ab cd"))
        assert r.error is not None and r.error.type == "input_too_long"
        field = "input" if isinstance(metric, str) else "actual_output"
        assert r.error.message.startswith(
            f"{field} has {MAX_SCORED_CHARACTERS + 2:,} characters, over the "
        ), r.error.message
        assert tokenised == []
        # At the character cap a side passes on to the token cap (here its whitespace chunks
        # are past that already: still nothing tokenised).
        at_cap = ("ab " * MAX_SCORED_CHARACTERS)[:MAX_SCORED_CHARACTERS]
        r = result({"type": "rouge"}, at_cap, "ab cd")
        assert r.error is not None and " tokens, over " in r.error.message, r.error.message
        assert all(length < 100 for length in tokenised), tokenised

    def test_fuzzy_match_caps_characters(self, judge: ScriptedJudge) -> None:
        # partial_ratio on 10,000 against 30,000 characters took 17 s of one worker.
        r = run_metric(judge, spec("fuzzy_match"), row("ab cd", "x" * 30_000))
        assert r.score is None and r.error.type == "input_too_long"
        assert r.error.message.startswith(
            "reference has 30,000 characters, over the fuzzy_match cap of "
            f"{MAX_FUZZY_CHARACTERS:,} characters a side"
        )
        at_cap = "y" * MAX_FUZZY_CHARACTERS
        assert run_metric(judge, spec("fuzzy_match"), row(at_cap, at_cap)).score == 1.0
