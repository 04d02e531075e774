/**
 * The TypeScript client against a live Loupe. Run by tests/sdk/test_typescript.py, which
 * serves the API with the scripted judge and passes LOUPE_URL, LOUPE_API_KEY and two images.
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
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
  PayloadTooLargeError,
  RateLimitError,
  RequestError,
  ServerError,
  textPart,
  UnsupportedMediaTypeError,
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

test("a key without the scope names the scope it lacks, and every field error is typed", async () => {
  const reader = new Loupe({ baseUrl: env("LOUPE_URL"), apiKey: env("LOUPE_READ_API_KEY") });
  const body = {
    test_cases: [{ input: "q", actual_output: "a", expected_output: "a" }],
    metrics: [metric("exact_match", {})],
  };
  await assert.rejects(reader.evaluations.create(body), (error: unknown) => {
    assert.ok(error instanceof AuthenticationError);
    assert.equal(error.status, 403);
    assert.equal(error.requiredScope, "write");
    assert.equal(error.problem.required_scope, "write");
    return true;
  });
  const writer = new Loupe({ baseUrl: env("LOUPE_URL"), apiKey: env("LOUPE_API_KEY") });
  const bad = { test_cases: [{ input: "q", actual_output: "a" }], metrics: body.metrics };
  await assert.rejects(writer.evaluations.create(bad), (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    const [field] = error.errors;
    const { loc, pointer, msg, type } = field;
    assert.deepEqual(
      { loc, pointer, type },
      {
        loc: "test_cases[0].expected_output",
        pointer: "/test_cases/0/expected_output",
        type: "missing_for_metric",
      },
    );
    assert.match(msg, /needs expected_output/);
    return true;
  });
});

test("bodies that are not a problem still map by status", () => {
  const limited = errorFromResponse(
    429,
    { title: "Too Many Requests", status: 429, detail: "slow down" },
    new Headers({ "Retry-After": "7" }),
  );
  assert.ok(limited instanceof RateLimitError);
  assert.equal(limited.retryAfter, 7);
  // A proxy in front of Loupe may send an HTTP-date: read as the seconds until then.
  const dated = errorFromResponse(
    429,
    { title: "Too Many Requests", status: 429 },
    new Headers({ "Retry-After": new Date(Date.now() + 3600_000).toUTCString() }),
  );
  assert.ok(dated instanceof RateLimitError);
  assert.ok(dated.retryAfter !== null && dated.retryAfter > 3500 && dated.retryAfter <= 3600);
  const failed = errorFromResponse(502, "<html>bad gateway</html>", new Headers());
  assert.ok(failed instanceof ServerError);
  assert.equal(failed.status, 502);
});

// The resources for the rest of the API, on a tenant of their own (LOUPE_RESOURCES_API_KEY).
const resources = () =>
  new Loupe({ baseUrl: env("LOUPE_URL"), apiKey: env("LOUPE_RESOURCES_API_KEY") });

const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const found: T[] = [];
  for await (const item of items) found.push(item);
  return found;
};

test("datasets uploaded and deleted; runs exported and deleted", async () => {
  const loupe = resources();
  const lines = [0, 1, 2].map((i) =>
    JSON.stringify({ messages: [{ role: "user", content: `Say ${i}.` }], answer: String(i) }),
  );
  const dataset = await loupe.datasets.create(new Blob([lines.join("\n") + "\n"]), {
    format: "general_vqa",
    name: "say numbers",
    filename: "say.jsonl",
  });
  assert.deepEqual([dataset.name, dataset.filename, dataset.row_count], [
    "say numbers",
    "say.jsonl",
    3,
  ]);
  const subset = dataset.subsets[0].name;
  const run = await loupe.runs.create({
    dataset_id: dataset.id,
    predictions: [0, 1, 2].map((index) => ({ subset, index, prediction: String(index) })),
  });
  assert.equal((await loupe.runs.wait(run.id, { timeoutMs: 120_000 })).status, "completed");
  const jsonl = await loupe.runs.export(run.id);
  assert.deepEqual(
    jsonl.trim().split("\n").map((line) => JSON.parse(line).prediction),
    ["0", "1", "2"],
  );
  const csv = await loupe.runs.export(run.id, { format: "csv" });
  assert.equal(csv.trim().split("\n").length, 4);
  assert.equal(await loupe.runs.delete(run.id), undefined);
  await assert.rejects(loupe.runs.get(run.id), NotFoundError);
  await loupe.datasets.delete(dataset.id);
  await assert.rejects(loupe.datasets.get(dataset.id), NotFoundError);
  await assert.rejects(
    loupe.datasets.create(new Blob(["{oops\n"]), { format: "general_vqa", filename: "bad.jsonl" }),
    ValidationError,
  );
});

test("evaluations exported, their images read back, then deleted", async () => {
  const loupe = resources();
  const created = await loupe.evaluations.create({
    test_cases: [
      {
        id: "pic",
        input: [textPart("Shown?"), imagePart(env("RED_PNG"))],
        actual_output: "4",
        expected_output: "4",
      },
    ],
    metrics: [metric("exact_match", {})],
  });
  await loupe.evaluations.wait(created.id, { timeoutMs: 120_000 });
  const csv = await loupe.evaluations.export(created.id, { format: "csv" });
  assert.match(csv.split("\n")[1], /^[^\n]*pic/);
  const jsonl = await loupe.evaluations.export(created.id);
  assert.equal(JSON.parse(jsonl.trim()).score, 1);

  const [testCase] = await collect(loupe.evaluations.testCases(created.id));
  const input = testCase.input as { type: string; image_url?: { url: string } }[];
  const url = input[1].image_url!.url;
  const image = await loupe.media.get(url);
  assert.equal(image.type, "image/png");
  const bytes = Buffer.from(await image.arrayBuffer());
  const digest = createHash("sha256").update(bytes).digest("hex");
  assert.ok(url.endsWith(`/v1/media/${digest}`));
  assert.equal((await loupe.media.get(digest)).size, bytes.length);
  await assert.rejects(loupe.media.get("0".repeat(64)), NotFoundError);

  await loupe.evaluations.delete(created.id);
  await assert.rejects(loupe.evaluations.get(created.id), NotFoundError);
});

test("models registered, read, listed and deleted", async () => {
  const loupe = resources();
  const model = await loupe.models.create({
    base_url: env("JUDGE_URL"),
    model: "candidate-7",
    api_key: "sk-candidate",
    name: "c7",
  });
  assert.deepEqual([model.name, model.has_api_key], ["c7", true]);
  assert.ok(!JSON.stringify(model).includes("sk-candidate"));
  assert.equal((await loupe.models.get(model.id)).model, "candidate-7");
  assert.deepEqual((await collect(loupe.models.list())).map((m) => m.id), [model.id]);
  await loupe.models.delete(model.id);
  await assert.rejects(loupe.models.get(model.id), NotFoundError);
});

test("webhook endpoints registered, delivered to, listed and deleted; usage read", async () => {
  const loupe = resources();
  const endpoint = await loupe.webhookEndpoints.create({
    url: env("WEBHOOK_URL"),
    description: "ci",
  });
  assert.ok(endpoint.secret.startsWith("whsec_"));
  assert.deepEqual((await collect(loupe.webhookEndpoints.list())).map((e) => e.id), [endpoint.id]);
  const created = await loupe.evaluations.create({
    test_cases: [{ input: "?", actual_output: "4", expected_output: "4" }],
    metrics: [metric("exact_match", {})],
    webhook_url: env("WEBHOOK_URL"),
  });
  await loupe.evaluations.wait(created.id, { timeoutMs: 120_000 });
  let deliveries = await collect(loupe.webhookEndpoints.deliveries(endpoint.id));
  for (let look = 0; deliveries.length === 0 && look < 600; look++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    deliveries = await collect(loupe.webhookEndpoints.deliveries(endpoint.id));
  }
  assert.deepEqual(
    deliveries.map((d) => [d.event_type, d.succeeded]),
    [["evaluation.completed", true]],
  );
  await loupe.webhookEndpoints.delete(endpoint.id);
  assert.deepEqual(await collect(loupe.webhookEndpoints.list()), []);

  const usage = await loupe.usage.get({ group_by: "model" });
  assert.equal(usage.group_by, "model");
  assert.equal(usage.judge.calls, 0);
  const early = await loupe.usage.get({ start: "2000-01-01", end: "2000-01-02" });
  assert.deepEqual([early.start, early.group_by], ["2000-01-01", "day"]);
});

test("413 and 415 are typed request errors", async () => {
  const loupe = resources();
  await assert.rejects(
    loupe.evaluations.create({
      // The test server takes 4 MiB.
      test_cases: [{ input: "x".repeat(5 * 1024 * 1024), actual_output: "a", expected_output: "a" }],
      metrics: [metric("exact_match", {})],
    }),
    (error: unknown) => {
      assert.ok(error instanceof PayloadTooLargeError && error instanceof RequestError);
      assert.equal(error.status, 413);
      return true;
    },
  );
  // No resource sends anything but JSON; the typed client under them can.
  const answer = await loupe.api.POST("/v1/models", {
    body: "base_url=x" as never,
    bodySerializer: (body: unknown) => body as string,
    headers: { "Content-Type": "text/plain" },
  });
  const error = errorFromResponse(answer.response.status, answer.error, answer.response.headers);
  assert.ok(error instanceof UnsupportedMediaTypeError && error instanceof RequestError);
  assert.equal(error.status, 415);
  assert.ok(errorFromResponse(410, undefined, new Headers()) instanceof RequestError);
});

test("an estimate before a submit: calls per metric, samples shown", async () => {
  const loupe = client();
  const bill = await loupe.evaluations.estimate({
    test_cases: [
      { input: "q1", actual_output: "a" },
      { input: "q2", actual_output: "b" },
    ],
    metrics: [
      metric("g_eval", {
        name: "estimated",
        criteria: "Does it answer?",
        evaluation_params: ["input"],
        judge: { samples: 2 },
      }),
    ],
  });
  // The steps once, then each case's score twice.
  assert.equal(bill.calls, 1 + 2 * 2);
  assert.equal(bill.metrics[0].multiplier, 2);
  assert.ok(bill.prompt_tokens > 0);
  assert.ok(bill.notes.length > 0);
});
