// An edit of one memory row of an agent (the API's PATCH of an episode or a fact): the columns
// given are set, the others kept. Column names come from the repository's code; values are
// bound parameters, already in their stored form (private spans replaced, lists as JSON).
import type { Db } from './db.ts';
import { equalityConditions } from './equality-conditions.ts';

/** Sets each column whose value is not undefined; false when the agent has no such row. */
export function updateAgentRow(
  db: Db,
  table: 'episodes' | 'pinned_facts',
  agentId: string,
  id: number,
  values: Record<string, string | number | undefined>,
): boolean {
  const { conditions: assignments, params } = equalityConditions(values);
  return (
    db
      .prepare(`UPDATE ${table} SET ${assignments.join(', ')} WHERE id = ? AND agent_id = ?`)
      .run(...params, id, agentId).changes > 0
  );
}
