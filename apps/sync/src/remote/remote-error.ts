/**
 * What the server (or the network on the way) refused, as a value the engine can read:
 * `status` 0 when no answer came at all (`code` NETWORK).
 */
export class RemoteError extends Error {
  readonly status: number;
  readonly code: string;
  /** Extra fields of the error body (`existingId` of a 409 NAME_TAKEN, `twoFactorRequired`). */
  readonly details: Record<string, unknown>;

  constructor(status: number, code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'RemoteError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** Whether `error` is a RemoteError with this code (or one of these statuses). */
export function isRemoteError(error: unknown, code?: string): error is RemoteError {
  return error instanceof RemoteError && (code === undefined || error.code === code);
}

/** Reads a non-2xx answer's `{error, code}` body into a RemoteError (a body that is not JSON keeps the status text). */
export async function errorFromResponse(response: Response): Promise<RemoteError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const { error, code, ...details } = body;
    return new RemoteError(
      response.status,
      typeof code === 'string' ? code : `HTTP_${response.status}`,
      typeof error === 'string' ? error : `The server answered ${response.status}`,
      details,
    );
  } catch {
    return new RemoteError(
      response.status,
      `HTTP_${response.status}`,
      `The server answered ${response.status} ${response.statusText}`.trim(),
    );
  }
}
