/**
 * A batch sent again while its first send is still being stored, against a live Loupe. Run by
 * tests/sdk/test_typescript.py: HELD_URL is an image host that answers `/held.png` only once
 * asked `/release`, so the batch showing it stays in progress on Loupe until then.
 */

import assert from "node:assert/strict";
import { test } from "node:test";

import { ConflictError, Loupe, metric, type TestCaseCreate } from "../src/index.js";

const env = (name: string): string => {
  const value = process.env[name];
  assert.ok(value, `${name} is not set`);
  return value;
};

/** Six cases without ids (appended twice, they would be twelve), the first showing the image. */
function withHeldImage(heldUrl: string): TestCaseCreate[] {
  const first: TestCaseCreate = {
    input: [
      { type: "text", text: "What colour is it?" },
      { type: "image_url", image_url: { url: `${heldUrl}/held.png` } },
    ],
    actual_output: "green",
    expected_output: "green",
  };
  const rest = [1, 2, 3, 4, 5].map((i) => ({
    input: `q${i}`,
    actual_output: "a",
    expected_output: "a",
  }));
  return [first, ...rest];
}

test("a batch meeting its first send in progress waits as Retry-After asks, appended once", async () => {
  const heldUrl = env("HELD_URL");
  const sends: [string, string][] = [];
  let firstSend: Promise<unknown> | undefined;
  // Batch 0's first send reaches Loupe, which fetches the held image; the connection then drops
  // (fetch's TypeError) while Loupe is still storing the batch. A 409 releases the image, so the
  // first send completes once a later send has met it in progress.
  const dropping: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const key = request.headers.get("idempotency-key");
    if (key === null) return fetch(request);
    if (key === "ts-held-0" && firstSend === undefined) {
      const cut = new AbortController();
      firstSend = fetch(request, { signal: cut.signal }).catch(() => undefined);
      assert.equal((await fetch(`${heldUrl}/started`)).status, 200, "image never asked for");
      cut.abort();
      await firstSend;
      sends.push([key, "no answer"]);
      throw new TypeError("fetch failed");
    }
    const response = await fetch(request);
    if (response.status === 409) {
      const problem = (await response.clone().json()) as { type: string };
      sends.push([key, `409 ${problem.type.split("/").pop()}`]);
      await (await fetch(`${heldUrl}/release`)).text();
    } else {
      const replayed = response.headers.get("idempotent-replayed") === "true" ? " replayed" : "";
      sends.push([key, `${response.status}${replayed}`]);
    }
    return response;
  };
  const loupe = new Loupe({
    baseUrl: env("LOUPE_URL"),
    apiKey: env("LOUPE_API_KEY"),
    fetch: dropping,
  });

  const created = await loupe.evaluations.createOpen({ metrics: [metric("exact_match", {})] });
  const count = await loupe.evaluations.appendAll(created.id, withHeldImage(heldUrl), {
    batchSize: 2,
    idempotencyPrefix: "ts-held",
  });
  assert.equal(count, 6);
  // One 409 as a rule; another while a slow machine is still storing the first send.
  const held = sends.filter(([key]) => key === "ts-held-0").map(([, outcome]) => outcome);
  assert.deepEqual(
    [held[0], new Set(held.slice(1, -1)), held.at(-1)],
    ["no answer", new Set(["409 idempotency-key-in-progress"]), "202 replayed"],
  );
  assert.deepEqual(sends.slice(held.length), [
    ["ts-held-1", "202"],
    ["ts-held-2", "202"],
  ]);
  const indices: number[] = [];
  for await (const testCase of loupe.evaluations.testCases(created.id)) {
    indices.push(testCase.index);
  }
  assert.deepEqual(indices, [0, 1, 2, 3, 4, 5]);

  // Any other 409 is thrown at once, the batch sent once.
  await loupe.evaluations.close(created.id);
  await assert.rejects(
    loupe.evaluations.appendAll(created.id, withHeldImage(heldUrl).slice(1, 2), {
      idempotencyPrefix: "ts-late",
    }),
    (error: unknown) =>
      error instanceof ConflictError && !error.type.endsWith("idempotency-key-in-progress"),
  );
  assert.deepEqual(sends.slice(held.length + 2), [["ts-late-0", "409 evaluation-not-open"]]);

  const done = await loupe.waitForEvaluation(created.id, { timeoutMs: 60_000 });
  assert.equal(done.status, "completed");
  assert.equal(done.result_counts.passed, 6);
});
