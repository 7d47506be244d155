// Error codes shared by the engine (which throws them) and the renderer (which shows them).
export const ErrorCode = {
  BadRequest: 'bad_request',
  InvalidJson: 'invalid_json',
  ValidationFailed: 'validation_failed',
  PayloadTooLarge: 'payload_too_large',
  Unauthorized: 'unauthorized',
  ForbiddenOrigin: 'forbidden_origin',
  ForbiddenHost: 'forbidden_host',
  NotFound: 'not_found',
  Conflict: 'conflict',
  UpstreamUnavailable: 'upstream_unavailable',
  UpstreamError: 'upstream_error',
  UpstreamTimeout: 'upstream_timeout',
  NoUpstream: 'no_upstream_configured',
  DatabaseLocked: 'database_locked',
  WrongKey: 'wrong_key',
  /** CAIRN_DB_KEY / a key file / a recovery key is malformed (or a key file is unsafe). */
  InvalidKey: 'invalid_key',
  /** A database exists but its key is in no keychain entry or key file. */
  KeyNotFound: 'key_not_found',
  DatabaseUnreadable: 'database_unreadable',
  DatabaseTooNew: 'database_too_new',
  /** A read found the database file damaged (SQLITE_CORRUPT / SQLITE_NOTADB): 503. */
  DatabaseDamaged: 'database_damaged',
  /** The disk holding the data folder is full (SQLITE_FULL / ENOSPC): 507. */
  DiskFull: 'disk_full',
  Internal: 'internal_error',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The OpenAI error shape every endpoint answers with. */
export interface ApiErrorBody {
  error: { message: string; type: string; code: ErrorCode | string };
}
