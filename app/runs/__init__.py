"""Dataset runs: a candidate model (or given predictions) over a dataset, scored like EvalScope.

A run is an evaluation of kind `run` underneath (same id): one test case per sample, the
run's scorers as metric specs, and the evaluation pipeline's jobs, recovery and webhooks.
"""
