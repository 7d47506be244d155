import { ErrorCode } from '../../shared/errors.ts';

const defaultStatus: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.BadRequest]: 400,
  [ErrorCode.InvalidJson]: 400,
  [ErrorCode.ValidationFailed]: 400,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.Unauthorized]: 401,
  [ErrorCode.ForbiddenOrigin]: 403,
  [ErrorCode.ForbiddenHost]: 403,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.UpstreamUnavailable]: 502,
  [ErrorCode.UpstreamError]: 502,
  [ErrorCode.UpstreamTimeout]: 504,
  [ErrorCode.NoUpstream]: 503,
};

/**
 * An expected failure with a code. Thrown deep inside, translated at the boundary
 * (HTTP error handler, job runner). Anything that is not a CairnError is a bug.
 */
export class CairnError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  constructor(code: ErrorCode, message: string, options?: { status?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CairnError';
    this.code = code;
    this.status = options?.status ?? defaultStatus[code] ?? 500;
  }
}

export function isCairnError(err: unknown): err is CairnError {
  return err instanceof CairnError;
}
