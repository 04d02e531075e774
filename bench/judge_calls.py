"""Judge calls per test case for issue 16's metrics, counted on the loopback scripted judge.

Each metric scores one representative test case (one output image; two images in a document;
three retrieval-context items, one of them an image) with the judge cache off, and the requests
the judge received are counted. deepeval 4.3.1's counts are from
/work/shared/reference/deepeval-image-metrics.md (read from its code, not run here).

    .venv/bin/python bench/judge_calls.py
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fixtures.judge import ScriptedJudge, task_of  # noqa: E402
from tests.fixtures.metrics import case, run_metric  # noqa: E402

A = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
B = {"type": "image_url", "image_url": {"url": "data:image/gif;base64,R0lGODlh"}}

ANSWERS = {
    "answer_relevancy_verdicts": {
        "statements": [{"statement": "s", "verdict": "yes"}],
        "images": [{"image": 1, "verdict": "yes"}],
        "reason": "r",
    },
    "contextual_relevancy_verdicts": {
        "nodes": [
            {"node": n, "verdicts": [{"statement": "s", "verdict": "yes"}]} for n in (1, 2, 3)
        ],
        "reason": "r",
    },
    "text_to_image_semantic": {"reasoning": "r", "score": [7]},
    "image_editing_semantic": {"reasoning": "r", "score": [7, 8]},
    "image_perceptual": {"reasoning": "r", "score": [9, 6]},
    "image_coherence": {"reasoning": "r", "score": 7},
    "image_helpfulness": {"reasoning": "r", "score": 7},
    "image_reference": {"reasoning": "r", "score": 7},
    "pairwise_preference": {"reason": "r", "winner": "A"},
}

DOCUMENT = ["Intro.", A, "Between.", B, "End."]
# (spec, test case, deepeval 4.3.1's calls for the same case, note)
CASES = [
    (
        {"type": "answer_relevancy"},
        case(actual_output=["A cat.", A]),
        "3",
        "statements, verdicts, reason",
    ),
    (
        {"type": "contextual_relevancy"},
        case(retrieval_context=["one", "two", [A]]),
        "4",
        "one per item (3) + reason",
    ),
    ({"type": "text_to_image"}, case(actual_output=[A]), "2", "semantic ‖ perceptual"),
    (
        {"type": "image_editing"},
        case(input=["Edit.", B], actual_output=[A]),
        "2",
        "semantic ‖ perceptual",
    ),
    ({"type": "image_coherence"}, case(actual_output=DOCUMENT), "2", "one per image (2)"),
    ({"type": "image_helpfulness"}, case(actual_output=DOCUMENT), "2", "one per image (2)"),
    ({"type": "image_reference"}, case(actual_output=DOCUMENT), "2", "one per image (2)"),
    (
        {"type": "pairwise", "criteria": "Which is right?"},
        case(actual_output="x", expected_output="y"),
        "n/a",
        "both orders at once",
    ),
    ({"type": "psnr"}, None, "n/a", "no judge (ssim too)"),
]


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n")[0]).parse_args()
    with ScriptedJudge() as judge:
        judge.script(lambda request: ANSWERS[task_of(request)])
        print("| metric | Loupe calls | deepeval 4.3.1 | deepeval's calls |")
        print("| --- | --- | --- | --- |")
        for spec, test_case, deepeval, note in CASES:
            judge.reset()
            judge.script(lambda request: ANSWERS[task_of(request)])
            if test_case is None:
                calls = 0
            else:
                result = run_metric(judge, spec, test_case)
                assert result.error is None, result.error
                calls = len(judge.requests)
                assert calls == result.usage.calls
            print(f"| `{spec['type']}` | {calls} | {deepeval} | {note} |")


if __name__ == "__main__":
    main()
