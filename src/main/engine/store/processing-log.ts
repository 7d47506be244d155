// processing_log (DESIGN §3): one row per distillation / consolidation / embedding job, for
// the diagnostics page. Never holds message text or memory content: status, model, tokens,
// duration and an error message only.
import type { Db } from './db.ts';
import { equalityConditions, whereClause } from './equality-conditions.ts';
import { cachedStatement } from './statement-cache.ts';

export type ProcessingKind = 'distill' | 'consolidate' | 'embed';
export type ProcessingStatus = 'ok' | 'error' | 'dead_letter' | 'skipped';

export interface ProcessingLogInput {
  kind: ProcessingKind;
  agentId: string | null;
  status: ProcessingStatus;
  model?: string | null;
  tokens?: number | null;
  durationMs: number;
  error?: string | null;
  now: number;
}

export interface ProcessingLogRecord {
  id: number;
  kind: ProcessingKind;
  agent_id: string | null;
  status: ProcessingStatus;
  model: string | null;
  tokens: number | null;
  duration_ms: number;
  error: string | null;
  created_at: number;
}

export function logProcessing(db: Db, e: ProcessingLogInput): number {
  return Number(
    cachedStatement(
      db,
      `INSERT INTO processing_log (kind, agent_id, status, model, tokens, duration_ms, error, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      e.kind,
      e.agentId,
      e.status,
      e.model ?? null,
      e.tokens ?? null,
      Math.max(0, Math.round(e.durationMs)),
      e.error == null ? null : e.error.slice(0, 1000),
      e.now,
    ).lastInsertRowid,
  );
}

export function listProcessingLog(
  db: Db,
  options: { limit: number; agentId?: string; kind?: ProcessingKind },
): ProcessingLogRecord[] {
  const { conditions, params } = equalityConditions({
    agent_id: options.agentId,
    kind: options.kind,
  });
  const where = whereClause(conditions);
  return db
    .prepare(`SELECT * FROM processing_log ${where} ORDER BY created_at DESC, id DESC LIMIT ?`)
    .all(...params, options.limit) as ProcessingLogRecord[];
}

/** Keeps the log bounded: deletes rows older than `before` (ms). */
export function pruneProcessingLog(db: Db, before: number): number {
  return db.prepare('DELETE FROM processing_log WHERE created_at < ?').run(before).changes;
}
