/**
 * An open evaluation appended in batches by the TypeScript client against a live Loupe. Run by
 * tests/sdk/test_typescript.py with live.test.ts; LOUPE_APPEND_API_KEY is a tenant of its own.
 */

import assert from "node:assert/strict";
import { test } from "node:test";

import { ConflictError, Loupe, metric, type TestCaseCreate } from "../src/index.js";

const env = (name: string): string => {
  const value = process.env[name];
  assert.ok(value, `${name} is not set`);
  return value;
};

/** `count` test cases made one at a time as appendAll reads them. */
function* generated(count: number, from = 0): Generator<TestCaseCreate> {
  for (let i = from; i < from + count; i++) {
    yield { id: `g${i}`, input: `q${i}`, actual_output: "a", expected_output: "a" };
  }
}

test("2,500 cases appended in batches of 1,000, a lost answer sent again, closed, completed", async () => {
  // Batch 1's first send reaches Loupe and is stored, but its answer is lost on the way back
  // (as a dropped connection loses it): appendAll must send it again under the same key.
  const sent: { key: string | null; replayed: string | null }[] = [];
  let dropped = false;
  const lossy: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const key = request.headers.get("idempotency-key");
    const response = await fetch(request);
    if (key !== null) sent.push({ key, replayed: response.headers.get("idempotent-replayed") });
    if (key?.endsWith("-1") && !dropped) {
      dropped = true;
      throw new TypeError("fetch failed");
    }
    return response;
  };
  const loupe = new Loupe({
    baseUrl: env("LOUPE_URL"),
    apiKey: env("LOUPE_APPEND_API_KEY"),
    fetch: lossy,
  });

  const created = await loupe.evaluations.createOpen({ metrics: [metric("exact_match", {})] });
  assert.equal(created.open, true);
  assert.equal(created.test_case_count, 0);

  const count = await loupe.evaluations.appendAll(created.id, generated(2500), {
    idempotencyPrefix: "ts-upload",
  });
  assert.equal(count, 2500);
  assert.deepEqual(sent, [
    { key: "ts-upload-0", replayed: null },
    { key: "ts-upload-1", replayed: null },
    { key: "ts-upload-1", replayed: "true" },
    { key: "ts-upload-2", replayed: null },
  ]);
  assert.equal((await loupe.evaluations.get(created.id)).test_case_count, 2500);

  // The second batch sent again by hand under its key: the first answer, nothing appended.
  const again = await loupe.evaluations.append(created.id, generated(1000, 1000), {
    idempotencyKey: "ts-upload-1",
  });
  assert.deepEqual([again.first_index, again.count, again.test_case_count], [1000, 1000, 2000]);
  // The whole upload run again (a client that died half way): every batch replayed.
  assert.equal(
    await loupe.evaluations.appendAll(created.id, generated(2500), {
      idempotencyPrefix: "ts-upload",
      close: true,
    }),
    2500,
  );
  assert.equal((await loupe.evaluations.get(created.id)).open, false);
  await assert.rejects(
    loupe.evaluations.append(created.id, generated(1, 2500)),
    (error: unknown) => error instanceof ConflictError && error.status === 409,
  );
  assert.equal((await loupe.evaluations.close(created.id)).open, false);

  const done = await loupe.waitForEvaluation(created.id, { timeoutMs: 300_000 });
  assert.equal(done.status, "completed");
  assert.equal(done.test_case_count, 2500);
  assert.deepEqual(done.result_counts, {
    total: 2500,
    passed: 2500,
    failed: 0,
    errored: 0,
    pending: 0,
    canceled: 0,
    skipped: 0,
  });
});
