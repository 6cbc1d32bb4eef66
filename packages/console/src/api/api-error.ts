/** An error answer of the API (`{"error":{code,message,pointer?,details?}}`), or a failure to reach it. */

/** What the API answered instead of a success, with its HTTP status (0: the server was not reached). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly pointer?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** The ApiError of an error answer's text (anything not in the API's error shape becomes `http_<status>`). */
export function apiErrorOf(status: number, text: string): ApiError {
  try {
    const body = JSON.parse(text) as {
      error?: { code?: unknown; message?: unknown; pointer?: unknown; details?: unknown };
    };
    const error = body.error;
    if (error !== undefined && typeof error.code === "string" && typeof error.message === "string") {
      return new ApiError(
        status,
        error.code,
        error.message,
        typeof error.pointer === "string" ? error.pointer : undefined,
        typeof error.details === "object" && error.details !== null
          ? (error.details as Record<string, unknown>)
          : undefined,
      );
    }
  } catch {
    // Not JSON: fall through.
  }
  return new ApiError(status, `http_${status}`, text.slice(0, 200) || `HTTP ${status}`);
}
