/**
 * The Loupe API client for TypeScript: requests are made by openapi-fetch from the types
 * openapi-typescript generates from Loupe's OpenAPI document (src/generated/schema.ts, rewritten
 * by `make sdk`); this file only adds resources, waiting, paging and typed errors.
 * Works wherever `fetch` does: Node 20+ and browsers.
 */

import createClient, { type Client } from "openapi-fetch";

import {
  ConflictError,
  errorFromResponse,
  RateLimitError,
  retryAfterSeconds,
  ServerError,
  WaitTimeoutError,
} from "./errors.js";
import type { components, operations, paths } from "./generated/schema.js";

export * from "./errors.js";
export type { components, operations, paths };

type Schemas = components["schemas"];
export type Evaluation = Schemas["Evaluation"];
export type EvaluationCreate = Schemas["EvaluationCreate"];
export type EvaluationResult = Schemas["EvaluationResult"];
export type TestCaseCreate = Schemas["TestCaseCreate"];
export type TestCaseBatchAppended = Schemas["TestCaseBatchAppended"];
export type TestCase = Schemas["TestCase"];
export type Run = Schemas["Run"];
export type RunCreate = Schemas["RunCreate"];
export type EvalRunCreate = Schemas["EvalRunCreate"];
export type Sample = Schemas["Sample"];
export type Dataset = Schemas["Dataset"];
export type DatasetRow = Schemas["DatasetRow"];
export type Comparison = Schemas["Comparison"];
export type ComparisonCreate = Schemas["ComparisonCreate"];
export type ComparisonItem = Schemas["ComparisonItem"];
export type CandidateModel = Schemas["CandidateModel"];
export type CandidateModelCreate = Schemas["CandidateModelCreate"];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookEndpointCreate = Schemas["WebhookEndpointCreate"];
export type WebhookEndpointWithSecret = Schemas["WebhookEndpointWithSecret"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type Usage = Schemas["Usage"];
export type DatasetFormat = Schemas["Body_create_dataset"]["format"];
export type Problem = Schemas["Problem"];
export type MetricSpec = EvaluationCreate["metrics"][number];
export type MetricType = MetricSpec["type"];
export type TextPart = Schemas["TextPart"];
export type ImageUrlPart = Schemas["ImageUrlPart"];

type Query<Operation extends keyof operations> = NonNullable<
  operations[Operation]["parameters"]["query"]
>;

const TERMINAL = new Set(["completed", "failed", "canceled"]);
// Between polls when the server sends no Retry-After (it does on queued/in-progress reads).
const DEFAULT_POLL_MS = 1000;
// The shortest wait between polls, whatever the caller or a Retry-After of 0 asks: never a spin.
const MIN_POLL_MS = 100;
// Answers a request is sent again after: the server did nothing with it and asks to be asked
// again later (a tenant limit, the database away), as its Retry-After says.
const RESEND_STATUSES = new Set([429, 503]);
// Answers a wait polls through until its deadline: the service or its proxy briefly away.
const POLL_THROUGH_STATUSES = new Set([429, 502, 503, 504]);
// The longest Retry-After a request is sent again after: a longer one (a spent daily budget
// asks to wait until midnight UTC) is the caller's to decide on, so its error is thrown at once.
const MAX_RETRY_WAIT_MS = 60_000;

export interface LoupeOptions {
  /** e.g. "https://loupe.internal.example" */
  baseUrl: string;
  apiKey: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
  /** How long each request may take, its answer's body read included; default 60 s. */
  timeoutMs?: number;
  /**
   * How many times a request is sent again on no answer (a network error or the timeout), or
   * on a 429 or 503 whose Retry-After is at most 60 s (after that wait), when it is a read or a
   * POST under an `idempotencyKey`; a POST without one is sent once. Default 2; 0: never.
   */
  maxRetries?: number;
}

export interface WaitOptions {
  /** Give up (WaitTimeoutError) after this long; default 10 minutes. */
  timeoutMs?: number;
  /** Poll this often instead of following the server's Retry-After. */
  pollIntervalMs?: number;
}

/** A metric spec with `type` filled in: `metric("g_eval", { name, criteria, ... })`. */
export function metric<T extends MetricType>(
  type: T,
  fields: Omit<Extract<MetricSpec, { type: T }>, "type">,
): Extract<MetricSpec, { type: T }> {
  return { ...fields, type } as Extract<MetricSpec, { type: T }>;
}

/** A text content part. */
export function textPart(text: string): TextPart {
  return { type: "text", text };
}

/** An image content part from a URL or a data: URI. */
export function imagePart(url: string): ImageUrlPart {
  return { type: "image_url", image_url: { url } };
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a success, or the typed error for an error answer. */
function unwrap<T>(answer: Answer<T>): T {
  if (answer.response.ok && answer.data !== undefined) return answer.data;
  throw errorFromResponse(answer.response.status, answer.error, answer.response.headers);
}

/** Nothing, for a success without a body (204); the typed error for an error answer. */
function unwrapEmpty(answer: Answer<unknown>): void {
  if (!answer.response.ok) {
    throw errorFromResponse(answer.response.status, answer.error, answer.response.headers);
  }
}

/** The digest in a `/v1/media/<sha256>` URL, or the argument when it is not one. */
function mediaDigest(sha256OrUrl: string): string {
  const marker = "/v1/media/";
  const at = sha256OrUrl.lastIndexOf(marker);
  return at === -1 ? sha256OrUrl : sha256OrUrl.slice(at + marker.length).replace(/\/+$/, "");
}

interface Page<T> {
  data: T[];
  has_more: boolean;
  last_id?: string | null;
}

/** Every item of a list endpoint, fetched page by page as the iterator advances. */
async function* everyPage<T>(fetchPage: (after?: string) => Promise<Page<T>>): AsyncGenerator<T> {
  let after: string | undefined;
  for (;;) {
    const page = await fetchPage(after);
    yield* page.data;
    if (!page.has_more || page.data.length === 0 || !page.last_id) return;
    after = page.last_id;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether fetch failed without an answer: a network error (a TypeError) or the timeout. */
const noAnswer = (error: unknown): boolean =>
  error instanceof TypeError ||
  (error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError"));

/**
 * Whether a request may be sent again when it failed: a read, or a write under an
 * Idempotency-Key (replayed by the server, never stored twice).
 */
function mayResend(request: Request): boolean {
  return ["GET", "HEAD"].includes(request.method) || request.headers.has("Idempotency-Key");
}

/**
 * Whether `response` is Loupe's 409 saying the key's first request still runs (a send that timed
 * out may still be storing): sending again under the key gets its answer once done.
 */
async function keyInProgress(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  try {
    const problem: unknown = await response.clone().json();
    const type = (problem as { type?: unknown } | null)?.type;
    return typeof type === "string" && type.endsWith(KEY_IN_PROGRESS);
  } catch {
    return false;
  }
}

/**
 * Milliseconds before sending a request again after `response` (null: no answer came), or null
 * when it is not sent again: a 429 or 503's Retry-After up to MAX_RETRY_WAIT_MS, a 409 while the
 * key's first request runs after its Retry-After (at most MAX_IN_PROGRESS_WAIT_MS), else 0.5 s
 * doubling; any other answer stands.
 */
async function resendAfterMs(response: Response | null, attempt: number): Promise<number | null> {
  if (response !== null && (await keyInProgress(response))) {
    const serverAsks = retryAfterSeconds(response.headers);
    return Math.min(serverAsks ? serverAsks * 1000 : 500 * 2 ** attempt, MAX_IN_PROGRESS_WAIT_MS);
  }
  if (response !== null) {
    if (!RESEND_STATUSES.has(response.status)) return null;
    const serverAsks = retryAfterSeconds(response.headers);
    if (serverAsks !== null) return serverAsks * 1000 <= MAX_RETRY_WAIT_MS ? serverAsks * 1000 : null;
  }
  return 500 * 2 ** attempt;
}

/**
 * `base` with each request limited to `timeoutMs` and sent again (at most `maxRetries` times)
 * where `mayResend` allows: on no answer, or a 429 or 503 after its Retry-After.
 */
function resending(base: typeof fetch, timeoutMs: number, maxRetries: number): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const resend = mayResend(request);
    for (let attempt = 0; ; attempt++) {
      const last = !resend || attempt >= maxRetries;
      const signal = AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]);
      let response: Response;
      try {
        response = await base(new Request(request.clone(), { signal }));
      } catch (error) {
        if (last || request.signal.aborted || !noAnswer(error)) throw error;
        await sleep(500 * 2 ** attempt);
        continue;
      }
      const delay = last ? null : await resendAfterMs(response, attempt);
      if (delay === null) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  };
}

async function waitUntilTerminal<T extends { status: string }>(
  read: () => Promise<Answer<T>>,
  what: string,
  { timeoutMs = 600_000, pollIntervalMs }: WaitOptions,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // The service or its proxy briefly away (no answer, a 429, 502, 503 or 504): polled again
    // until the deadline, as a Retry-After asks.
    let answer: Answer<T> | null = null;
    let status = "unreachable";
    try {
      answer = await read();
    } catch (error) {
      if (!noAnswer(error)) throw error;
    }
    if (answer !== null && !POLL_THROUGH_STATUSES.has(answer.response.status)) {
      const current = unwrap(answer);
      if (TERMINAL.has(current.status)) return current;
      status = current.status;
    } else if (answer !== null) {
      status = `answering ${answer.response.status}`;
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new WaitTimeoutError(`${what} still ${status}`);
    const serverAsks = answer === null ? null : retryAfterSeconds(answer.response.headers);
    const delay = pollIntervalMs ?? (serverAsks ? serverAsks * 1000 : DEFAULT_POLL_MS);
    await sleep(Math.min(Math.max(delay, MIN_POLL_MS), remaining));
  }
}

export interface AppendAllOptions {
  /** Test cases per request (at most the server's LOUPE_MAX_TEST_CASES); default 1,000. */
  batchSize?: number;
  /**
   * The batches' keys are `<idempotencyPrefix>-<batch number>` (a new prefix when not given):
   * run an interrupted upload again with the same prefix and the batches already appended are
   * replayed, not appended twice (within the server's LOUPE_IDEMPOTENCY_RETENTION_HOURS of each
   * batch's first send; later a batch is taken as new).
   */
  idempotencyPrefix?: string;
  /** Close the evaluation once every batch is appended. */
  close?: boolean;
}

// A batch's send that failed on the way (no answer, a 5xx, a 429, or a 409 while an earlier
// send under its key still runs) is sent again with the same Idempotency-Key this many times in
// all: appended once, whichever attempt got through.
const APPEND_ATTEMPTS = 4;
// How the problem type of Loupe's 409 ends while the key's first request still runs (a send
// that failed on the way may still be appending): sending again under the key is what it is for.
const KEY_IN_PROGRESS = "idempotency-key-in-progress";
// The longest wait a 409's Retry-After gets (Loupe asks 1 s): the attempts stay a few seconds.
const MAX_IN_PROGRESS_WAIT_MS = 10_000;

/** Options of a creating POST: under an Idempotency-Key, sending it again stores it once. */
export interface CreateOptions {
  idempotencyKey?: string;
}

/** The header params of a create under `idempotencyKey`, if given. */
const keyed = ({ idempotencyKey }: CreateOptions) =>
  idempotencyKey ? { header: { "Idempotency-Key": idempotencyKey } } : {};

/** A new idempotency key (32 hex digits, as the Python client's). */
const newKey = (): string => globalThis.crypto.randomUUID().replaceAll("-", "");

/** `testCases` in arrays of at most `size`, read lazily (a generator is never held whole). */
async function* inBatches<T>(
  testCases: Iterable<T> | AsyncIterable<T>,
  size: number,
): AsyncGenerator<T[]> {
  if (!Number.isInteger(size) || size < 1) throw new RangeError("batchSize must be at least 1");
  let batch: T[] = [];
  for await (const testCase of testCases) {
    batch.push(testCase);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Whether a failed send may be sent again: no answer (a network error or the timeout), 5xx, 429
 * (not one asking to wait past MAX_RETRY_WAIT_MS), or a 409 saying the key's first request is
 * still in progress (any other 409 stands).
 */
function retryable(error: unknown): boolean {
  if (error instanceof ConflictError) return error.type.endsWith(KEY_IN_PROGRESS);
  if (error instanceof ServerError || error instanceof RateLimitError) {
    // A spent daily budget asks to wait until midnight UTC: not a wait to sleep through.
    const serverAsks = retryAfterSeconds(error.headers);
    return serverAsks === null || serverAsks * 1000 <= MAX_RETRY_WAIT_MS;
  }
  return noAnswer(error);
}

/**
 * Milliseconds before sending a batch again: the server's Retry-After on a 429 or 5xx (at most
 * MAX_RETRY_WAIT_MS, which `retryable` checks), or on a 409 while the key is in progress (at
 * most MAX_IN_PROGRESS_WAIT_MS), else 0.5 s doubling.
 */
function retryDelayMs(attempt: number, error: unknown): number {
  if (error instanceof RateLimitError || error instanceof ServerError) {
    const serverAsks = retryAfterSeconds(error.headers);
    if (serverAsks) return Math.min(serverAsks * 1000, MAX_RETRY_WAIT_MS);
  }
  const serverAsks = error instanceof ConflictError ? retryAfterSeconds(error.headers) : null;
  return serverAsks ? Math.min(serverAsks * 1000, MAX_IN_PROGRESS_WAIT_MS) : 500 * 2 ** attempt;
}

/**
 * A Loupe API client: `client.evaluations`, `.runs`, `.datasets`, `.comparisons`, `.models`,
 * `.webhookEndpoints`, `.usage`, `.media`.
 */
export class Loupe {
  /** The typed openapi-fetch client, for any endpoint the resources below do not wrap. */
  readonly api: Client<paths>;

  constructor(options: LoupeOptions) {
    const base = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.api = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      headers: { Authorization: `Bearer ${options.apiKey}` },
      fetch: resending(base, options.timeoutMs ?? 60_000, options.maxRetries ?? 2),
    });
  }

  readonly evaluations = {
    create: async (body: EvaluationCreate, options: CreateOptions = {}) =>
      unwrap(await this.api.POST("/v1/evaluations", { body, params: keyed(options) })),
    /**
     * Submits an open evaluation (`open: true`; `test_cases` may be left out): append its test
     * cases with `append` or `appendAll`, then `close` it.
     */
    createOpen: async (
      body: Omit<EvaluationCreate, "open">,
      options: CreateOptions = {},
    ): Promise<Evaluation> => this.evaluations.create({ ...body, open: true }, options),
    /**
     * Appends one batch (at most LOUPE_MAX_TEST_CASES) to an open evaluation; sent again with
     * the same `idempotencyKey` (a new one when not given), it is appended once.
     */
    append: async (
      evaluationId: string,
      testCases: Iterable<TestCaseCreate>,
      options: { idempotencyKey?: string } = {},
    ): Promise<TestCaseBatchAppended> =>
      unwrap(
        await this.api.POST("/v1/evaluations/{evaluation_id}/test_cases", {
          body: { test_cases: Array.from(testCases) },
          params: {
            path: { evaluation_id: evaluationId },
            header: { "Idempotency-Key": options.idempotencyKey ?? newKey() },
          },
        }),
      ),
    /**
     * Appends `testCases` (any iterable or async iterable, read lazily) in batches of
     * `batchSize`, each with its own key `<idempotencyPrefix>-<n>` and sent again on a network
     * error, 5xx, 429, or 409 while the batch's first send is still in progress; then closes
     * the evaluation if `close`. Resolves to the evaluation's test case count.
     */
    appendAll: async (
      evaluationId: string,
      testCases: Iterable<TestCaseCreate> | AsyncIterable<TestCaseCreate>,
      { batchSize = 1000, idempotencyPrefix, close = false }: AppendAllOptions = {},
    ): Promise<number> => {
      const prefix = idempotencyPrefix || newKey();
      let count = (await this.evaluations.get(evaluationId)).test_case_count;
      let number = 0;
      for await (const batch of inBatches(testCases, batchSize)) {
        const idempotencyKey = `${prefix}-${number}`;
        for (let attempt = 0; ; attempt++) {
          try {
            count = (await this.evaluations.append(evaluationId, batch, { idempotencyKey }))
              .test_case_count;
            break;
          } catch (error) {
            if (!retryable(error) || attempt === APPEND_ATTEMPTS - 1) throw error;
            await sleep(retryDelayMs(attempt, error));
          }
        }
        number++;
      }
      if (close) await this.evaluations.close(evaluationId);
      return count;
    },
    /**
     * Says an open evaluation has all its test cases (again: no change); it completes once
     * every case is scored.
     */
    close: async (evaluationId: string) =>
      unwrap(
        await this.api.POST("/v1/evaluations/{evaluation_id}/close", {
          params: { path: { evaluation_id: evaluationId } },
        }),
      ),
    /** What submitting `body` would cost (judge calls, tokens, usd); nothing is stored. */
    estimate: async (body: EvaluationCreate) =>
      unwrap(await this.api.POST("/v1/evaluations/estimate", { body })),
    get: async (evaluationId: string) =>
      unwrap(
        await this.api.GET("/v1/evaluations/{evaluation_id}", {
          params: { path: { evaluation_id: evaluationId } },
        }),
      ),
    list: (query: Omit<Query<"list_evaluations">, "after"> = {}) =>
      everyPage<Evaluation>(async (after) =>
        unwrap(await this.api.GET("/v1/evaluations", { params: { query: { ...query, after } } })),
      ),
    results: (evaluationId: string, query: Omit<Query<"list_evaluation_results">, "after"> = {}) =>
      everyPage<EvaluationResult>(async (after) =>
        unwrap(
          await this.api.GET("/v1/evaluations/{evaluation_id}/results", {
            params: { path: { evaluation_id: evaluationId }, query: { ...query, after } },
          }),
        ),
      ),
    testCases: (evaluationId: string, query: { limit?: number } = {}) =>
      everyPage<TestCase>(async (after) =>
        unwrap(
          await this.api.GET("/v1/evaluations/{evaluation_id}/test_cases", {
            params: { path: { evaluation_id: evaluationId }, query: { ...query, after } },
          }),
        ),
      ),
    /** The results as one JSONL (default) or CSV document. */
    export: async (
      evaluationId: string,
      query: Query<"export_evaluation_results"> = {},
    ): Promise<string> =>
      unwrap(
        await this.api.GET("/v1/evaluations/{evaluation_id}/results/export", {
          params: { path: { evaluation_id: evaluationId }, query },
          parseAs: "text",
        }),
      ),
    cancel: async (evaluationId: string) =>
      unwrap(
        await this.api.POST("/v1/evaluations/{evaluation_id}/cancel", {
          params: { path: { evaluation_id: evaluationId } },
        }),
      ),
    /** Deletes a finished evaluation (ConflictError while it runs: cancel it first). */
    delete: async (evaluationId: string): Promise<void> =>
      unwrapEmpty(
        await this.api.DELETE("/v1/evaluations/{evaluation_id}", {
          params: { path: { evaluation_id: evaluationId } },
        }),
      ),
    /** The evaluation once completed, failed or canceled, polling as Retry-After asks. */
    wait: (evaluationId: string, options: WaitOptions = {}) =>
      waitUntilTerminal(
        () =>
          this.api.GET("/v1/evaluations/{evaluation_id}", {
            params: { path: { evaluation_id: evaluationId } },
          }),
        `evaluation ${evaluationId}`,
        options,
      ),
  };

  /** The evaluation once completed, failed or canceled (`evaluations.wait`). */
  waitForEvaluation(evaluationId: string, options: WaitOptions = {}): Promise<Evaluation> {
    return this.evaluations.wait(evaluationId, options);
  }

  readonly runs = {
    create: async (body: RunCreate, options: CreateOptions = {}) =>
      unwrap(await this.api.POST("/v1/runs", { body, params: keyed(options) })),
    /** What starting this run would cost, its candidate model's calls included. */
    estimate: async (body: RunCreate) => unwrap(await this.api.POST("/v1/runs/estimate", { body })),
    get: async (runId: string) =>
      unwrap(await this.api.GET("/v1/runs/{run_id}", { params: { path: { run_id: runId } } })),
    list: () =>
      everyPage<Run>(async (after) =>
        unwrap(await this.api.GET("/v1/runs", { params: { query: { after, limit: 100 } } })),
      ),
    samples: (runId: string) =>
      everyPage<Sample>(async (after) =>
        unwrap(
          await this.api.GET("/v1/runs/{run_id}/samples", {
            params: { path: { run_id: runId }, query: { after } },
          }),
        ),
      ),
    /** The samples as one JSONL (default) or CSV document. */
    export: async (runId: string, query: Query<"export_run_samples"> = {}): Promise<string> =>
      unwrap(
        await this.api.GET("/v1/runs/{run_id}/samples/export", {
          params: { path: { run_id: runId }, query },
          parseAs: "text",
        }),
      ),
    cancel: async (runId: string) =>
      unwrap(
        await this.api.POST("/v1/runs/{run_id}/cancel", { params: { path: { run_id: runId } } }),
      ),
    delete: async (runId: string): Promise<void> =>
      unwrapEmpty(
        await this.api.DELETE("/v1/runs/{run_id}", { params: { path: { run_id: runId } } }),
      ),
    wait: (runId: string, options: WaitOptions = {}) =>
      waitUntilTerminal(
        () => this.api.GET("/v1/runs/{run_id}", { params: { path: { run_id: runId } } }),
        `run ${runId}`,
        options,
      ),
  };

  readonly datasets = {
    /**
     * Uploads a benchmark file (.jsonl, .tsv, .csv, or a .zip with its media); every row is
     * validated now. The file name's suffix says its kind: a `File`'s own name, else `filename`.
     */
    create: async (
      file: Blob,
      fields: { format: DatasetFormat; name?: string; filename?: string } & CreateOptions,
    ): Promise<Dataset> => {
      const filename = fields.filename ?? (file as File).name;
      if (!filename) throw new TypeError("datasets.create needs a File or a filename");
      const form = new FormData();
      form.append("file", file, filename);
      form.append("format", fields.format);
      if (fields.name !== undefined) form.append("name", fields.name);
      return unwrap(
        await this.api.POST("/v1/datasets", {
          body: { file: filename, format: fields.format },
          bodySerializer: () => form,
          params: keyed(fields),
        }),
      );
    },
    get: async (datasetId: string) =>
      unwrap(
        await this.api.GET("/v1/datasets/{dataset_id}", {
          params: { path: { dataset_id: datasetId } },
        }),
      ),
    list: () =>
      everyPage<Dataset>(async (after) =>
        unwrap(await this.api.GET("/v1/datasets", { params: { query: { after, limit: 100 } } })),
      ),
    rows: (datasetId: string, query: { subset?: string } = {}) =>
      everyPage<DatasetRow>(async (after) =>
        unwrap(
          await this.api.GET("/v1/datasets/{dataset_id}/rows", {
            params: { path: { dataset_id: datasetId }, query: { ...query, after } },
          }),
        ),
      ),
    /** Deletes a dataset and its rows (ConflictError while a run uses it). */
    delete: async (datasetId: string): Promise<void> =>
      unwrapEmpty(
        await this.api.DELETE("/v1/datasets/{dataset_id}", {
          params: { path: { dataset_id: datasetId } },
        }),
      ),
  };

  readonly comparisons = {
    create: async (body: ComparisonCreate, options: CreateOptions = {}) =>
      unwrap(await this.api.POST("/v1/comparisons", { body, params: keyed(options) })),
    get: async (comparisonId: string) =>
      unwrap(
        await this.api.GET("/v1/comparisons/{comparison_id}", {
          params: { path: { comparison_id: comparisonId } },
        }),
      ),
    /** Every comparison of the tenant, newest first. */
    list: () =>
      everyPage<Comparison>(async (after) =>
        unwrap(
          await this.api.GET("/v1/comparisons", { params: { query: { after, limit: 100 } } }),
        ),
      ),
    items: (comparisonId: string, query: Omit<Query<"list_comparison_items">, "after"> = {}) =>
      everyPage<ComparisonItem>(async (after) =>
        unwrap(
          await this.api.GET("/v1/comparisons/{comparison_id}/items", {
            params: { path: { comparison_id: comparisonId }, query: { ...query, after } },
          }),
        ),
      ),
  };

  /** `/v1/models`: your own OpenAI-compatible endpoints, as run candidates or judges. */
  readonly models = {
    /** Registers a model; its `api_key` is stored encrypted and never returned. */
    create: async (body: CandidateModelCreate, options: CreateOptions = {}) =>
      unwrap(await this.api.POST("/v1/models", { body, params: keyed(options) })),
    get: async (modelId: string) =>
      unwrap(
        await this.api.GET("/v1/models/{model_id}", { params: { path: { model_id: modelId } } }),
      ),
    list: () =>
      everyPage<CandidateModel>(async (after) =>
        unwrap(await this.api.GET("/v1/models", { params: { query: { after, limit: 100 } } })),
      ),
    delete: async (modelId: string): Promise<void> =>
      unwrapEmpty(
        await this.api.DELETE("/v1/models/{model_id}", {
          params: { path: { model_id: modelId } },
        }),
      ),
  };

  /** `/v1/webhook_endpoints`: where terminal events are POSTed (Standard Webhooks). */
  readonly webhookEndpoints = {
    /** Registers an endpoint; the answer's signing `secret` is shown only here. */
    create: async (body: WebhookEndpointCreate, options: CreateOptions = {}) =>
      unwrap(await this.api.POST("/v1/webhook_endpoints", { body, params: keyed(options) })),
    list: () =>
      everyPage<WebhookEndpoint>(async (after) =>
        unwrap(
          await this.api.GET("/v1/webhook_endpoints", {
            params: { query: { after, limit: 100 } },
          }),
        ),
      ),
    /** Every delivery attempt to the endpoint, newest first. */
    deliveries: (endpointId: string) =>
      everyPage<WebhookDelivery>(async (after) =>
        unwrap(
          await this.api.GET("/v1/webhook_endpoints/{endpoint_id}/deliveries", {
            params: { path: { endpoint_id: endpointId }, query: { after, limit: 100 } },
          }),
        ),
      ),
    delete: async (endpointId: string): Promise<void> =>
      unwrapEmpty(
        await this.api.DELETE("/v1/webhook_endpoints/{endpoint_id}", {
          params: { path: { endpoint_id: endpointId } },
        }),
      ),
  };

  /** `/v1/evals`: OpenAI Evals definitions (create and read runs with the `openai` package). */
  readonly evals = {
    runs: {
      /** What creating this run of the eval would cost: its model's calls (`candidate`) and its
       * graders', per criterion and in total; nothing is stored, no model is called. */
      estimate: async (evalId: string, body: EvalRunCreate) =>
        unwrap(
          await this.api.POST("/v1/evals/{eval_id}/runs/estimate", {
            params: { path: { eval_id: evalId } },
            body,
          }),
        ),
    },
  };

  /** `/v1/usage`: the tenant's judge and candidate calls, tokens and cost. */
  readonly usage = {
    /** On UTC days `start`..`end` (ISO dates; default the last 30 days), by day or model. */
    get: async (query: Query<"get_usage"> = {}) =>
      unwrap(await this.api.GET("/v1/usage", { params: { query } })),
  };

  /** `/v1/media`: the images and audio stored test cases and rows refer to. */
  readonly media = {
    /** A stored blob, by its SHA-256 or by the URL an answer gave for it. */
    get: async (sha256OrUrl: string): Promise<Blob> =>
      unwrap(
        await this.api.GET("/v1/media/{sha256}", {
          params: { path: { sha256: mediaDigest(sha256OrUrl) } },
          parseAs: "blob",
        }),
      ),
  };
}
