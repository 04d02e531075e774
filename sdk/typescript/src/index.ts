/**
 * The Loupe API client for TypeScript: requests are made by openapi-fetch from the types
 * openapi-typescript generates from Loupe's OpenAPI document (src/generated/schema.ts, rewritten
 * by `make sdk`); this file only adds resources, waiting, paging and typed errors.
 * Works wherever `fetch` does: Node 20+ and browsers.
 */

import createClient, { type Client } from "openapi-fetch";

import { errorFromResponse, retryAfterSeconds, WaitTimeoutError } from "./errors.js";
import type { components, operations, paths } from "./generated/schema.js";

export * from "./errors.js";
export type { components, operations, paths };

type Schemas = components["schemas"];
export type Evaluation = Schemas["Evaluation"];
export type EvaluationCreate = Schemas["EvaluationCreate"];
export type EvaluationResult = Schemas["EvaluationResult"];
export type TestCaseCreate = Schemas["TestCaseCreate"];
export type TestCase = Schemas["TestCase"];
export type Run = Schemas["Run"];
export type RunCreate = Schemas["RunCreate"];
export type Sample = Schemas["Sample"];
export type Dataset = Schemas["Dataset"];
export type DatasetRow = Schemas["DatasetRow"];
export type Comparison = Schemas["Comparison"];
export type ComparisonCreate = Schemas["ComparisonCreate"];
export type ComparisonItem = Schemas["ComparisonItem"];
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

export interface LoupeOptions {
  /** e.g. "https://loupe.internal.example" */
  baseUrl: string;
  apiKey: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
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

async function waitUntilTerminal<T extends { status: string }>(
  read: () => Promise<Answer<T>>,
  what: string,
  { timeoutMs = 600_000, pollIntervalMs }: WaitOptions,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await read();
    const current = unwrap(answer);
    if (TERMINAL.has(current.status)) return current;
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new WaitTimeoutError(`${what} still ${current.status}`);
    const serverAsks = retryAfterSeconds(answer.response.headers);
    const delay = pollIntervalMs ?? (serverAsks === null ? DEFAULT_POLL_MS : serverAsks * 1000);
    await sleep(Math.min(delay, remaining));
  }
}

/** A Loupe API client: `client.evaluations`, `.runs`, `.datasets`, `.comparisons`. */
export class Loupe {
  /** The typed openapi-fetch client, for any endpoint the resources below do not wrap. */
  readonly api: Client<paths>;

  constructor(options: LoupeOptions) {
    this.api = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      headers: { Authorization: `Bearer ${options.apiKey}` },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  readonly evaluations = {
    create: async (body: EvaluationCreate, options: { idempotencyKey?: string } = {}) =>
      unwrap(
        await this.api.POST("/v1/evaluations", {
          body,
          params: options.idempotencyKey
            ? { header: { "Idempotency-Key": options.idempotencyKey } }
            : {},
        }),
      ),
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
    cancel: async (evaluationId: string) =>
      unwrap(
        await this.api.POST("/v1/evaluations/{evaluation_id}/cancel", {
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
    create: async (body: RunCreate) => unwrap(await this.api.POST("/v1/runs", { body })),
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
    cancel: async (runId: string) =>
      unwrap(
        await this.api.POST("/v1/runs/{run_id}/cancel", { params: { path: { run_id: runId } } }),
      ),
    wait: (runId: string, options: WaitOptions = {}) =>
      waitUntilTerminal(
        () => this.api.GET("/v1/runs/{run_id}", { params: { path: { run_id: runId } } }),
        `run ${runId}`,
        options,
      ),
  };

  readonly datasets = {
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
  };

  readonly comparisons = {
    create: async (body: ComparisonCreate) =>
      unwrap(await this.api.POST("/v1/comparisons", { body })),
    get: async (comparisonId: string) =>
      unwrap(
        await this.api.GET("/v1/comparisons/{comparison_id}", {
          params: { path: { comparison_id: comparisonId } },
        }),
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
}
