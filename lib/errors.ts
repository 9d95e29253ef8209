/**
 * The one error type lib code throws on purpose. Server actions map it to `{ ok: false }`, route
 * handlers to an HTTP status, CLIs to a message and exit code; anything else is a bug, logged once.
 */
export type AppErrorCode =
  "NOT_FOUND" | "INVALID_INPUT" | "CONFLICT" | "FORBIDDEN" | "UNAVAILABLE" | "INTERNAL";

export class AppError extends Error {
  readonly code: AppErrorCode;
  /** What the person can do about it, printed after the message by CLIs. */
  readonly hint?: string;

  constructor(code: AppErrorCode, message: string, options?: { hint?: string; cause?: unknown }) {
    super(message, { cause: options?.cause });
    this.name = "AppError";
    this.code = code;
    this.hint = options?.hint;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

const httpStatusByCode: Record<AppErrorCode, number> = {
  NOT_FOUND: 404,
  INVALID_INPUT: 422,
  CONFLICT: 409,
  FORBIDDEN: 403,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

export function httpStatusOf(error: AppError): number {
  return httpStatusByCode[error.code];
}
