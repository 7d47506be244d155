// One page of a memory table and the number of rows it is a page of: the paged lists of the
// UI and the API (episodes, pinned facts, transcript), with their filter box. Column names,
// conditions and the order come from the repositories' own SQL text; every value, the words
// typed in the filter included, is a bound parameter.
import { escapeLike } from '../text/text.ts';
import type { Db } from './db.ts';
import { equalityConditions, whereClause } from './equality-conditions.ts';

export interface PageQuery {
  table: 'episodes' | 'pinned_facts' | 'transcript';
  /** `column = value` for each value given (undefined: no condition). Scoped by agent_id. */
  equal: { agent_id: string } & Record<string, string | number | undefined>;
  /** Conditions without a value (`superseded_at IS NULL`). */
  also?: readonly string[];
  /** The filter box: the words as typed, found anywhere in one of `columns`. */
  contains?: { words: string | undefined; columns: readonly string[] };
  orderBy: string;
  limit: number;
  offset: number;
}

export function selectPage<Row>(db: Db, q: PageQuery): { rows: Row[]; total: number } {
  const equal = equalityConditions(q.equal);
  const text = q.contains ? containsText(q.contains.words, q.contains.columns) : null;
  const where = whereClause([...equal.conditions, ...(q.also ?? []), ...(text ? [text.sql] : [])]);
  const params = [...equal.params, ...(text ? text.params : [])];
  const rows = db
    .prepare(`SELECT * FROM ${q.table} ${where} ORDER BY ${q.orderBy} LIMIT ? OFFSET ?`)
    .all(...params, q.limit, q.offset) as Row[];
  const total = db
    .prepare(`SELECT count(*) FROM ${q.table} ${where}`)
    .pluck()
    .get(...params) as number;
  return { rows, total };
}

/**
 * `words` (trimmed) as a substring of one of `columns`, with `%` and `_` matching themselves;
 * null when nothing was typed.
 */
function containsText(
  words: string | undefined,
  columns: readonly string[],
): { sql: string; params: string[] } | null {
  const typed = words?.trim() ?? '';
  if (typed === '') return null;
  const like = '%' + escapeLike(typed) + '%';
  const any = columns.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(' OR ');
  return { sql: `(${any})`, params: columns.map(() => like) };
}
