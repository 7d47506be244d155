import type { z } from 'zod';
import { ErrorCode } from '../../../shared/errors.ts';
import { CairnError } from '../errors.ts';

/** A zod error as one readable sentence naming the field(s): `turns.0.user: ...`. */
export function describeIssues(
  issues: readonly { path: PropertyKey[]; message: string }[],
): string {
  return issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/** Validates an HTTP body or query with a shared schema; failure → 400 validation_failed. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  data: unknown,
  what = 'body',
): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) {
    throw new CairnError(
      ErrorCode.ValidationFailed,
      `Invalid request ${what}: ${describeIssues(result.error.issues)}`,
    );
  }
  return result.data;
}
