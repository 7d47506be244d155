// How deep a parsed JSON body nests. JSON.parse itself is iterative in V8 and takes any depth,
// but much of what runs after it recurses (JSON.stringify, zod, structuredClone): a body of
// arrays nested 5,000 deep overflowed the stack there and answered 500. Every JSON body is
// measured once after parsing, by a loop with its own stack, so the check cannot overflow.

/**
 * Nesting allowed in a request body. The deepest legitimate shapes (OpenAI tool schemas,
 * MCP arguments, chat content parts) stay far below it.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * True when arrays/objects in `value` nest more than `max` levels deep (a scalar is depth 0,
 * `[]` and `{}` depth 1). Stops at the first container past the limit.
 */
export function exceedsJsonDepth(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const pending: object[] = [value];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return true;
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        pending.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
