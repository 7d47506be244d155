// The optional filters of a list query: `column = ?` for each value the caller gave, in order,
// with the value as a bound parameter. Column names come from the repository's own code,
// never from a request.

export function equalityConditions<V extends string | number>(
  values: Record<string, V | undefined>,
): { conditions: string[]; params: V[] } {
  const given = Object.entries(values).filter(
    (entry): entry is [string, V] => entry[1] !== undefined,
  );
  return {
    conditions: given.map(([column]) => `${column} = ?`),
    params: given.map(([, value]) => value),
  };
}

/** `WHERE` and the conditions joined with AND; nothing when there are none. */
export function whereClause(conditions: readonly string[]): string {
  return conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
}
