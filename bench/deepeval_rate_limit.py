"""deepeval 4.3.1 against the rate-limited loopback judge (run by bench/rate_limit.py with a
separate virtualenv's python; deepeval is not one of Loupe's dependencies).

    <venv>/bin/python bench/deepeval_rate_limit.py BASE_URL CASES [MAX_CONCURRENT]
Prints one JSON line: cases scored, metrics errored, wall seconds. MAX_CONCURRENT is
`AsyncConfig.max_concurrent`, the test cases deepeval scores at once (its default, 20, unless
given).
"""

import json
import sys
import time

from deepeval import evaluate
from deepeval.evaluate.configs import AsyncConfig, DisplayConfig, ErrorConfig
from deepeval.metrics import (
    ContextualPrecisionMetric,
    ContextualRecallMetric,
    FaithfulnessMetric,
    GEval,
)
from deepeval.models import GPTModel
from deepeval.test_case import LLMTestCase, LLMTestCaseParams


def main() -> None:
    base_url, cases = sys.argv[1], int(sys.argv[2])
    max_concurrent = int(sys.argv[3]) if len(sys.argv) > 3 else AsyncConfig().max_concurrent
    model = GPTModel(model="gpt-4.1", base_url=base_url, api_key="sk-bench")
    metrics = [
        GEval(
            name="helpfulness",
            criteria="Does the output answer the input?",
            evaluation_params=[LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT],
            model=model,
        ),
        FaithfulnessMetric(model=model),
        ContextualPrecisionMetric(model=model),
        ContextualRecallMetric(model=model),
    ]
    test_cases = [
        LLMTestCase(
            input=f"What is the colour of item {i}?",
            actual_output=f"Item {i} is blue.",
            expected_output=f"Item {i} is blue.",
            retrieval_context=[f"Document {i}: item {i} is painted blue."],
        )
        for i in range(cases)
    ]
    started = time.monotonic()
    result = evaluate(
        test_cases,
        metrics,
        async_config=AsyncConfig(run_async=True, max_concurrent=max_concurrent),
        display_config=DisplayConfig(print_results=False, show_indicator=False),
        error_config=ErrorConfig(ignore_errors=True),
    )
    wall = time.monotonic() - started
    errored = sum(
        1
        for test in result.test_results
        for metric in test.metrics_data or []
        if metric.error is not None
    )
    scored = sum(len(test.metrics_data or []) for test in result.test_results)
    print(
        json.dumps(
            {
                "results": scored,
                "errored": errored,
                "wall_s": wall,
                "max_concurrent": max_concurrent,
            }
        )
    )


if __name__ == "__main__":
    main()
