/** Errors thrown for problem+json answers (RFC 9457), one class per kind of failure. */

/** One bad field of a request: where (`loc`, and `pointer` into the body), why and its kind. */
export interface FieldError {
  loc: string;
  pointer: string;
  msg: string;
  type: string;
}

/** A problem+json body (RFC 9457) as Loupe sends it. */
export interface ProblemBody {
  type?: string;
  title?: string;
  status?: number;
  detail?: string | null;
  instance?: string | null;
  errors?: FieldError[] | null;
  /** On a 403: the scope the call needs, which the key lacks. */
  required_scope?: string | null;
  [member: string]: unknown;
}

/**
 * Any error answer from Loupe; `status`, `title` and `detail` come from its problem body,
 * `requiredScope` too on a 403 (the scope the key lacks), and `problem` is that whole body.
 */
export class LoupeError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string | null;
  readonly type: string;
  readonly instance: string | null;
  /** Each bad field of a request (`loc`, `msg`), for validation errors. */
  readonly errors: FieldError[];
  readonly headers: Headers;
  readonly requiredScope: string | null;
  readonly problem: ProblemBody;

  constructor(status: number, problem: ProblemBody, headers: Headers) {
    const title = problem.title ?? `HTTP ${status}`;
    super(`${status} ${title}${problem.detail ? `: ${problem.detail}` : ""}`);
    this.name = new.target.name;
    this.status = status;
    this.title = title;
    this.detail = problem.detail ?? null;
    this.type = problem.type ?? "about:blank";
    this.instance = problem.instance ?? null;
    this.errors = problem.errors ?? [];
    this.headers = headers;
    this.requiredScope = problem.required_scope ?? null;
    this.problem = problem;
  }
}

/**
 * A 4xx for the request itself (400, 413, 415, 422, and any 4xx without its own class):
 * sending it again unchanged fails again.
 */
export class RequestError extends LoupeError {}
/** 400 or 422: the request was malformed; `errors` lists each bad field. */
export class ValidationError extends RequestError {}
/** 413: the body is over the server's limit (LOUPE_MAX_BODY_BYTES); send fewer test cases. */
export class PayloadTooLargeError extends RequestError {}
/** 415: the body's Content-Type is not one the endpoint takes (JSON is expected). */
export class UnsupportedMediaTypeError extends RequestError {}
/** 401 or 403: the API key is missing, wrong or revoked. */
export class AuthenticationError extends LoupeError {}
/** 404: no such object for this tenant. */
export class NotFoundError extends LoupeError {}
/** 409: the object's state forbids this (e.g. canceling a finished evaluation). */
export class ConflictError extends LoupeError {}
/** 429: too many requests; `retryAfter` is the server's wait in seconds, if it gave one. */
export class RateLimitError extends LoupeError {
  get retryAfter(): number | null {
    return retryAfterSeconds(this.headers);
  }
}
/** 5xx: Loupe failed; retrying later may succeed. */
export class ServerError extends LoupeError {}

/** Thrown by the wait helpers when the object is still not finished at the deadline. */
export class WaitTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WaitTimeoutError";
  }
}

/**
 * The Retry-After header in seconds, or null. Loupe sends delta-seconds; a proxy or an ingress
 * in front of it may send an HTTP-date (RFC 9110), read as the seconds until then.
 */
export function retryAfterSeconds(headers: Headers): number | null {
  const value = headers.get("retry-after");
  if (value === null) return null;
  const seconds = Number(value);
  if (value.trim() !== "" && Number.isFinite(seconds)) return Math.max(0, seconds);
  const moment = Date.parse(value);
  return Number.isNaN(moment) ? null : Math.max(0, (moment - Date.now()) / 1000);
}

function errorClass(status: number): typeof LoupeError {
  if (status === 400 || status === 422) return ValidationError;
  if (status === 401 || status === 403) return AuthenticationError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 413) return PayloadTooLargeError;
  if (status === 415) return UnsupportedMediaTypeError;
  if (status === 429) return RateLimitError;
  if (status >= 400 && status < 500) return RequestError;
  if (status >= 500) return ServerError;
  return LoupeError;
}

/** The error for an answer's status and body (a parsed problem, or text that is not one). */
export function errorFromResponse(status: number, body: unknown, headers: Headers): LoupeError {
  const problem: ProblemBody =
    body !== null && typeof body === "object" ? (body as ProblemBody) : {};
  const ErrorClass = errorClass(status);
  return new ErrorClass(status, problem, headers);
}
