/**
 * The TypeScript client against a live Loupe. Run by tests/sdk/test_typescript.py, which
 * serves the API with the scripted judge and passes LOUPE_URL, LOUPE_API_KEY and two images.
 */

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  AuthenticationError,
  ConflictError,
  errorFromResponse,
  type EvaluationResult,
  imagePart,
  Loupe,
  LoupeError,
  metric,
  NotFoundError,
  RateLimitError,
  ServerError,
  textPart,
  ValidationError,
  WaitTimeoutError,
} from "../src/index.js";

const env = (name: string): string => {
  const value = process.env[name];
  assert.ok(value, `${name} is not set`);
  return value;
};

const client = () => new Loupe({ baseUrl: env("LOUPE_URL"), apiKey: env("LOUPE_API_KEY") });

test("images and judged metrics: submitted, waited for, every result page read", async () => {
  const loupe = client();
  const created = await loupe.evaluations.create(
    {
      name: "typescript shapes",
      metadata: { client: "typescript" },
      test_cases: Array.from({ length: 5 }, (_, i) => ({
        id: `case-${i}`,
        input: [textPart("What shape is shown?"), imagePart(env("RED_PNG"))],
        actual_output: `A red circle, number ${i}.`,
        expected_output: "A red circle.",
        retrieval_context: [`Doc ${i}: the logo is a red circle.`, [imagePart(env("BLUE_PNG"))]],
      })),
      metrics: [
        metric("g_eval", {
          name: "helpfulness",
          criteria: "Does the output answer the input?",
          evaluation_params: ["input", "actual_output"],
        }),
        metric("faithfulness", {}),
        metric("contextual_precision", {}),
        metric("contextual_recall", {}),
      ],
    },
    { idempotencyKey: "typescript-shapes" },
  );
  assert.equal(created.status, "queued");
  assert.deepEqual(created.metadata, { client: "typescript" });

  const final = await loupe.waitForEvaluation(created.id, { timeoutMs: 120_000 });
  assert.equal(final.status, "completed");
  assert.deepEqual(final.result_counts, {
    total: 20,
    passed: 20,
    failed: 0,
    errored: 0,
    pending: 0,
    canceled: 0,
    skipped: 0,
  });

  const results: EvaluationResult[] = [];
  for await (const result of loupe.evaluations.results(created.id, { limit: 3 })) {
    results.push(result);
  }
  assert.equal(results.length, 20);
  assert.equal(new Set(results.map((r) => r.id)).size, 20);
  const geval = results.find((r) => r.metric === "helpfulness");
  assert.equal(geval?.logs["score_mode"], "logprob_weighted");
  assert.equal(geval?.reason, "It names the shape correctly.");

  const cases = [];
  for await (const testCase of loupe.evaluations.testCases(created.id, { limit: 2 })) {
    cases.push(testCase.id);
  }
  assert.deepEqual(cases, ["case-0", "case-1", "case-2", "case-3", "case-4"]);

  // Canceling a finished evaluation is a conflict.
  await assert.rejects(loupe.evaluations.cancel(created.id), (error: unknown) => {
    assert.ok(error instanceof ConflictError && error instanceof LoupeError);
    assert.equal(error.status, 409);
    assert.equal(error.title, "Conflict");
    return true;
  });
});

test("a wait that runs out throws WaitTimeoutError", async () => {
  const loupe = client();
  const created = await loupe.evaluations.create({
    // The scripted judge answers this case slowly: it cannot finish within the wait.
    test_cases: [{ input: "SLOW-CASE", actual_output: "a" }],
    metrics: [metric("g_eval", { name: "slow", criteria: "c", evaluation_params: ["input"] })],
  });
  await assert.rejects(
    loupe.evaluations.wait(created.id, { timeoutMs: 200 }),
    WaitTimeoutError,
  );
  assert.equal((await loupe.evaluations.cancel(created.id)).status, "canceled");
});

test("error answers are typed", async () => {
  const loupe = client();
  await assert.rejects(
    loupe.evaluations.create({
      test_cases: [{ input: "q", actual_output: "a" }],
      metrics: [metric("exact_match", {})],
    }),
    (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.equal(error.status, 422);
      assert.deepEqual(
        error.errors.map((e) => e.loc),
        ["test_cases[0].expected_output"],
      );
      return true;
    },
  );
  await assert.rejects(loupe.evaluations.get("eval_missing"), (error: unknown) => {
    assert.ok(error instanceof NotFoundError);
    assert.equal(error.status, 404);
    assert.ok(error.detail);
    return true;
  });
  const stranger = new Loupe({ baseUrl: env("LOUPE_URL"), apiKey: "lp_not_a_key" });
  await assert.rejects(stranger.evaluations.get("eval_missing"), AuthenticationError);
  const everything = [];
  for await (const run of loupe.runs.list()) everything.push(run);
  assert.deepEqual(everything, []);
});

test("past the tenant's limit of active evaluations is a RateLimitError", async () => {
  // This tenant may have one active evaluation; the judge answers SLOW-CASE slowly.
  const limited = new Loupe({ baseUrl: env("LOUPE_URL"), apiKey: env("LOUPE_LIMITED_API_KEY") });
  const slow = {
    test_cases: [{ input: "SLOW-CASE", actual_output: "a" }],
    metrics: [metric("g_eval", { name: "slow", criteria: "c", evaluation_params: ["input"] })],
  };
  const first = await limited.evaluations.create(slow);
  await assert.rejects(limited.evaluations.create(slow), (error: unknown) => {
    assert.ok(error instanceof RateLimitError);
    assert.equal(error.status, 429);
    assert.equal(error.retryAfter, 30);
    return true;
  });
  await limited.evaluations.cancel(first.id);
});

test("bodies that are not a problem still map by status", () => {
  const limited = errorFromResponse(
    429,
    { title: "Too Many Requests", status: 429, detail: "slow down" },
    new Headers({ "Retry-After": "7" }),
  );
  assert.ok(limited instanceof RateLimitError);
  assert.equal(limited.retryAfter, 7);
  const failed = errorFromResponse(502, "<html>bad gateway</html>", new Headers());
  assert.ok(failed instanceof ServerError);
  assert.equal(failed.status, 502);
});
