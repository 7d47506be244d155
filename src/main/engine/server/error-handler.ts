import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ZodError } from 'zod';
import { type ApiErrorBody, ErrorCode } from '../../../shared/errors.ts';
import { classifyStorageError } from '../db-health.ts';
import { CairnError, isCairnError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { describeIssues } from './validate.ts';

/** The OpenAI error `type` for a status. */
export function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'invalid_request_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

export function errorBody(err: CairnError): ApiErrorBody {
  return { error: { message: err.message, type: errorType(err.status), code: err.code } };
}

/** Expected failures from fastify itself (body parsing, limits) as CairnErrors. */
function fromFastify(err: FastifyError): CairnError | null {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new CairnError(ErrorCode.PayloadTooLarge, 'The request body is too large.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new CairnError(ErrorCode.InvalidJson, 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new CairnError(
        ErrorCode.BadRequest,
        'Unsupported content type: send JSON with "Content-Type: application/json".',
        { status: 415 },
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new CairnError(ErrorCode.BadRequest, 'Content-Length does not match the body.');
  }
  if (err instanceof SyntaxError) {
    return new CairnError(ErrorCode.InvalidJson, 'The request body is not valid JSON.');
  }
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    return new CairnError(
      err.statusCode === 413 ? ErrorCode.PayloadTooLarge : ErrorCode.BadRequest,
      err.message,
      { status: err.statusCode },
    );
  }
  return null;
}

/**
 * A full disk or a damaged database file, wherever it surfaced (an SQLite error, or the
 * cause of a CairnError that only said "internal"): what the user can act on instead of a
 * bare 500. 507 Insufficient Storage (RFC 4918 §11.5) for the disk, 503 for the damage (the
 * service cannot answer until a backup is restored).
 */
function fromStorage(err: unknown): CairnError | null {
  switch (classifyStorageError(err)) {
    case 'disk_full':
      return new CairnError(
        ErrorCode.DiskFull,
        "The disk holding Cairn's data is full: free space, then retry.",
        { status: 507, cause: err },
      );
    case 'damaged':
      return new CairnError(
        ErrorCode.DatabaseDamaged,
        "Cairn's database file is damaged, so this request could not be completed. Restore an encrypted backup, or export what is still readable first; GET /health says more.",
        { status: 503, cause: err },
      );
    default:
      return null;
  }
}

export function sendError(reply: FastifyReply, err: CairnError): FastifyReply {
  return reply.code(err.status).type('application/json; charset=utf-8').send(errorBody(err));
}

/**
 * One handler for every route: CairnErrors (expected) keep their status and message;
 * anything else is a bug: logged with its stack, answered with a bare 500.
 */
export function registerErrorHandler(app: FastifyInstance, logger: Logger): void {
  app.setErrorHandler((raw: FastifyError | Error, request, reply) => {
    let err: CairnError | null;
    // A storage failure says more than a generic 5xx built around it; a 4xx stays as it is.
    const storage = isCairnError(raw) && raw.status < 500 ? null : fromStorage(raw);
    if (storage) err = storage;
    else if (isCairnError(raw)) err = raw;
    else if (raw instanceof ZodError) {
      err = new CairnError(
        ErrorCode.ValidationFailed,
        `Invalid request: ${describeIssues(raw.issues)}`,
      );
    } else err = fromFastify(raw as FastifyError);
    if (!err) {
      logger.error('unexpected error', {
        method: request.method,
        route: request.routeOptions.url,
        err: raw,
      });
      err = new CairnError(ErrorCode.Internal, 'Internal error (see the Cairn log).', {
        status: 500,
      });
    } else if (err.status >= 500) {
      logger.warn('request failed', { route: request.routeOptions.url, code: err.code });
    }
    return sendError(reply, err);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      new CairnError(
        ErrorCode.NotFound,
        `No route for ${request.method} ${request.url.split('?')[0]}.`,
      ),
    ),
  );
}
