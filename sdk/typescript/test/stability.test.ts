/**
 * The TypeScript client reads how stable a judge was (issue 27). Run by
 * tests/sdk/test_typescript_stability.py, which serves the API with a judge that disagrees with
 * itself, makes a baseline and a candidate evaluation judged three times per item, and passes
 * LOUPE_URL, LOUPE_API_KEY, BASELINE_ID, CANDIDATE_ID and the expected counts.
 */

import assert from "node:assert/strict";
import { test } from "node:test";

import { type EvaluationResult, Loupe } from "../src/index.js";

const env = (name: string): string => {
  const value = process.env[name];
  assert.ok(value, `${name} is not set`);
  return value;
};

const client = () => new Loupe({ baseUrl: env("LOUPE_URL"), apiKey: env("LOUPE_API_KEY") });
const expected = () => JSON.parse(env("EXPECTED")) as {
  metric: string;
  samples: number;
  baseline_fragile: string[];
  candidate_fragile: string[];
  set_aside: number;
};

test("each result's stability and fragile, the summary's counts, the fragile filter", async () => {
  const loupe = client();
  const want = expected();
  const evaluation = await loupe.evaluations.get(env("CANDIDATE_ID"));
  const summary = evaluation.per_metric.find((m) => m.metric === want.metric);
  assert.ok(summary?.stability);
  assert.equal(summary.stability.samples, want.samples);
  assert.equal(summary.stability.fragile, want.candidate_fragile.length);
  assert.equal(typeof summary.stability.pass_hat_k, "number");

  const shaky: EvaluationResult[] = [];
  for await (const result of loupe.evaluations.results(env("CANDIDATE_ID"), {
    metric: want.metric,
    fragile: true,
  })) {
    shaky.push(result);
  }
  assert.deepEqual(shaky.map((r) => r.test_case_id).sort(), [...want.candidate_fragile].sort());
  for (const result of shaky) {
    assert.equal(result.fragile, true);
    assert.equal(result.stability?.judgments.length, want.samples);
    assert.ok(result.stability?.judgments.every((j) => typeof j.reason === "string"));
  }
});

test("a comparison sets fragile items aside and counts them per side", async () => {
  const comparison = await client().comparisons.create({
    baseline_id: env("BASELINE_ID"),
    candidate_id: env("CANDIDATE_ID"),
    fragile: "exclude",
  });
  const want = expected();
  assert.equal(comparison.fragile, "exclude");
  const judged = comparison.metrics.find((m) => m.metric === want.metric);
  assert.ok(judged);
  assert.deepEqual(judged.fragile, {
    baseline: want.baseline_fragile.length,
    candidate: want.candidate_fragile.length,
    set_aside: want.set_aside,
    candidate_unmatched: 0,
  });
});
