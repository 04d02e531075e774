/**
 * The TypeScript client prices an eval run before it starts (issue 27's audit). Run by
 * tests/sdk/test_typescript_eval_estimate.py, which creates an eval and passes LOUPE_URL,
 * LOUPE_API_KEY, EVAL_ID, DATA_SOURCE and the API's own answer (EXPECTED).
 */

import assert from "node:assert/strict";
import { test } from "node:test";

import { Loupe } from "../src/index.js";

const env = (name: string): string => {
  const value = process.env[name];
  assert.ok(value, `${name} is not set`);
  return value;
};

test("evals.runs.estimate answers as the API does", async () => {
  const loupe = new Loupe({ baseUrl: env("LOUPE_URL"), apiKey: env("LOUPE_API_KEY") });
  const expected = JSON.parse(env("EXPECTED")) as { calls: number; metrics: { calls: number }[] };
  const bill = await loupe.evals.runs.estimate(env("EVAL_ID"), {
    data_source: JSON.parse(env("DATA_SOURCE")),
  });
  assert.equal(bill.object, "estimate");
  assert.equal(bill.calls, expected.calls);
  assert.deepEqual(
    bill.metrics.map((metric) => metric.calls),
    expected.metrics.map((metric) => metric.calls),
  );
  assert.equal(bill.candidate, null);
});
