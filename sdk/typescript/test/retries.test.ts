/**
 * When the TypeScript client sends a request again, against a live Loupe: a 429 or 503 after its
 * Retry-After, only for a read or a POST under an Idempotency-Key, at most `maxRetries` times; a
 * Retry-After past a minute (a spent daily budget) thrown at once; a wait polling through the
 * service being away; `timeoutMs`. Run by tests/sdk/test_typescript.py (TestRetries).
 *
 * The client's sleeps go through setTimeout, swapped here for one that records each delay the
 * client asks for and then fires at once, so that a 30 s Retry-After costs the test nothing
 * (fetch's own timers, undici's, are left as they are).
 */

import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { imagePart, Loupe, metric, RateLimitError, textPart } from "../src/index.js";

const env = (name: string): string => {
  const value = process.env[name];
  assert.ok(value, `${name} is not set`);
  return value;
};

const realSetTimeout = globalThis.setTimeout;
let delays: number[] = [];
// Run before a recorded sleep ends (e.g. what makes the next send succeed).
let duringSleep: ((ms: number) => Promise<void>) | null = null;

beforeEach(() => {
  delays = [];
  duringSleep = null;
  globalThis.setTimeout = ((callback: () => void, ms?: number, ...rest: unknown[]) => {
    if (!new Error().stack?.includes("/dist/src/index.js")) {
      return realSetTimeout(callback, ms, ...rest);
    }
    delays.push(ms ?? 0);
    const during = duringSleep?.(ms ?? 0) ?? Promise.resolve();
    void during.then(() => realSetTimeout(callback, 0));
    return realSetTimeout(() => {}, 0);
  }) as typeof setTimeout;
});

afterEach(() => {
  globalThis.setTimeout = realSetTimeout;
});

/** A fetch counting each request's method and path as it reaches Loupe. */
function counting(sent: string[]): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    sent.push(`${request.method} ${new URL(request.url).pathname}`);
    return fetch(request);
  };
}

const slow = {
  name: "limited",
  test_cases: [{ input: "SLOW-CASE", actual_output: "a" }],
  metrics: [metric("g_eval", { name: "slow", criteria: "c", evaluation_params: ["input"] })],
};

test("a keyed create past the tenant's limit is sent again after Retry-After, once stored", async () => {
  const sent: string[] = [];
  const loupe = new Loupe({
    baseUrl: env("LOUPE_URL"),
    apiKey: env("LOUPE_LIMITED_API_KEY"),
    fetch: counting(sent),
  });
  const first = await loupe.evaluations.create(slow);
  // Without a key a second send could store it twice: sent once, thrown.
  await assert.rejects(loupe.evaluations.create(slow), RateLimitError);
  assert.deepEqual(sent, ["POST /v1/evaluations", "POST /v1/evaluations"]);
  assert.deepEqual(delays, []);

  // With one, the first is canceled while the client waits out the 429's Retry-After.
  duringSleep = async () => {
    duringSleep = null;
    await loupe.evaluations.cancel(first.id);
  };
  const second = await loupe.evaluations.create(slow, { idempotencyKey: "limited-second" });
  assert.deepEqual(delays, [30_000]);
  const named: string[] = [];
  for await (const evaluation of loupe.evaluations.list({ name: "limited" })) {
    named.push(evaluation.id);
  }
  assert.deepEqual(named.sort(), [first.id, second.id].sort());
  await loupe.evaluations.cancel(second.id);
});

test("a keyed create still refused is sent again at most maxRetries times", async () => {
  const sent: string[] = [];
  const loupe = new Loupe({
    baseUrl: env("LOUPE_URL"),
    apiKey: env("LOUPE_LIMITED_API_KEY"),
    fetch: counting(sent),
  });
  const first = await loupe.evaluations.create(slow);
  await assert.rejects(
    loupe.evaluations.create(slow, { idempotencyKey: "limited-third" }),
    (error: unknown) => error instanceof RateLimitError && error.retryAfter === 30,
  );
  assert.deepEqual(delays, [30_000, 30_000]);
  assert.equal(sent.filter((line) => line === "POST /v1/evaluations").length, 4);
  await loupe.evaluations.cancel(first.id);
});

test("a spent daily budget is thrown at once, not slept through until midnight", async () => {
  const loupe = new Loupe({ baseUrl: env("LOUPE_URL"), apiKey: env("LOUPE_BUDGET_API_KEY") });
  const cases = [{ input: "q", actual_output: "a", expected_output: "a" }];
  await assert.rejects(
    loupe.evaluations.appendAll(env("BUDGET_EVALUATION_ID"), cases, { idempotencyPrefix: "b" }),
    (error: unknown) => {
      assert.ok(error instanceof RateLimitError);
      assert.ok((error.retryAfter ?? 0) > 60, `Retry-After ${error.retryAfter}`);
      assert.match(error.detail ?? "", /daily_usd/);
      return true;
    },
  );
  assert.deepEqual(delays, []);
});

test("a wait polls through a 503 while Loupe is away, then answers", async () => {
  const loupe = new Loupe({ baseUrl: env("LOUPE_URL"), apiKey: env("LOUPE_API_KEY") });
  const created = await loupe.evaluations.create({
    test_cases: [{ input: "q", actual_output: "a", expected_output: "a" }],
    metrics: [metric("exact_match", {})],
  });
  // A proxy in front answers the first poll itself, as while Loupe restarts.
  let polls = 0;
  const behindProxy: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    if (request.method === "GET" && polls++ === 0) {
      return new Response("<html>restarting</html>", {
        status: 503,
        headers: { "Retry-After": "3" },
      });
    }
    return fetch(request);
  };
  const waiting = new Loupe({
    baseUrl: env("LOUPE_URL"),
    apiKey: env("LOUPE_API_KEY"),
    fetch: behindProxy,
    maxRetries: 0,
  });
  const done = await waiting.evaluations.wait(created.id, { timeoutMs: 120_000 });
  assert.equal(done.status, "completed");
  assert.equal(delays[0], 3_000);
});

test("timeoutMs ends a request Loupe does not answer", async () => {
  // HELD_URL answers nothing until it is released.
  const loupe = new Loupe({
    baseUrl: env("HELD_URL"),
    apiKey: "lp_unused",
    timeoutMs: 200,
    maxRetries: 0,
  });
  await assert.rejects(
    loupe.evaluations.get("evn_held"),
    (error: unknown) => error instanceof DOMException && error.name === "TimeoutError",
  );
});

test("every create sent again under its key is stored once", async () => {
  globalThis.setTimeout = realSetTimeout; // the runs are waited for as a caller would
  const loupe = new Loupe({ baseUrl: env("LOUPE_URL"), apiKey: env("LOUPE_API_KEY") });
  /** Created under one key twice, then under another (keys are per tenant). */
  const twice = async (kind: string, create: (key: string) => Promise<{ id: string }>) => {
    const ids: string[] = [];
    for (const n of [1, 1, 2]) ids.push((await create(`${kind}-${n}`)).id);
    return ids;
  };
  const row = { messages: [{ role: "user", content: "Say 0." }], answer: "0" };
  const file = new Blob([`${JSON.stringify(row)}\n`]);
  const datasets = await twice("dataset", (idempotencyKey) =>
    loupe.datasets.create(file, { format: "general_vqa", filename: "say.jsonl", idempotencyKey }),
  );
  const predictions = [{ subset: "say", index: 0, prediction: "0" }];
  const runs = await twice("run", (idempotencyKey) =>
    loupe.runs.create({ dataset_id: datasets[0], predictions }, { idempotencyKey }),
  );
  const models = await twice("model", (idempotencyKey) =>
    loupe.models.create(
      { base_url: env("JUDGE_URL"), model: "m", name: `m-${idempotencyKey}` },
      { idempotencyKey },
    ),
  );
  for (const run of runs) await loupe.runs.wait(run, { timeoutMs: 120_000 });
  const comparisons = await twice("comparison", (idempotencyKey) =>
    loupe.comparisons.create({ baseline_id: runs[0], candidate_id: runs[2] }, { idempotencyKey }),
  );
  const hooks = await twice("hook", (idempotencyKey) =>
    loupe.webhookEndpoints.create(
      { url: `${env("LOUPE_URL")}/hook-${idempotencyKey}` },
      { idempotencyKey },
    ),
  );
  for (const ids of [datasets, runs, models, comparisons, hooks]) {
    assert.equal(ids[0], ids[1]);
    assert.notEqual(ids[1], ids[2]);
  }
  // Listed once each, newest first.
  const listed: string[] = [];
  for await (const comparison of loupe.comparisons.list()) listed.push(comparison.id);
  assert.deepEqual(listed, [comparisons[0], comparisons[2]].sort().reverse());
});

test("a keyed create that timed out gets its first send's answer once that is stored", async () => {
  // The first send fetches an image HELD_URL holds, so it outlasts timeoutMs; sent again under
  // its key, Loupe answers 409 while the first runs, and that was thrown.
  globalThis.setTimeout = realSetTimeout; // the 409's Retry-After is waited for as it says
  const statuses: number[] = [];
  const watching: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const response = await fetch(request);
    statuses.push(response.status);
    if (response.status === 409) await fetch(`${env("HELD_URL")}/release`);
    return response;
  };
  const loupe = new Loupe({
    baseUrl: env("LOUPE_URL"),
    apiKey: env("LOUPE_API_KEY"),
    fetch: watching,
    timeoutMs: 500,
    maxRetries: 10,
  });
  const created = await loupe.evaluations.create(
    {
      name: "held",
      test_cases: [
        {
          input: [textPart("What?"), imagePart(`${env("HELD_URL")}/held.png`)],
          actual_output: "a",
          expected_output: "a",
        },
      ],
      metrics: [metric("exact_match", {})],
    },
    { idempotencyKey: "held-create" },
  );
  assert.ok(statuses.includes(409), `${statuses}`);
  assert.equal(statuses.at(-1), 202);
  const named: string[] = [];
  for await (const evaluation of loupe.evaluations.list({ name: "held" })) named.push(evaluation.id);
  assert.deepEqual(named, [created.id]);
});
