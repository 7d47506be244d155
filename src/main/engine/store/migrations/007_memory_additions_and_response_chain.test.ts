import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../migrate.ts';
import {
  deleteMemoryAdditions,
  listMemoryAdditions,
  saveMemoryAddition,
} from '../memory-additions.ts';
import { loadResponseChain, pruneResponses, saveResponse } from '../response-chain.ts';
import { databaseAtVersionPerTest } from '../../../../../test/helpers/database-per-test.ts';

const dbAt = databaseAtVersionPerTest();

const addition = (messageIndex: number, contentHash = 'h') => ({
  messageIndex,
  contentHash,
  shape: 'suffix' as const,
  added: '\n\n[Memory]\n- x\n[/Memory]',
  section: 'pinned',
  tokens: 9,
});

describe('migration 007 (memory additions, response chain)', () => {
  it('creates both tables; additions are per agent and conversation, first one wins', () => {
    const db = dbAt(4);
    migrate(db, 7);
    expect(schemaVersion(db)).toBe(7);
    saveMemoryAddition(db, 'a', 'c1', addition(1), 10);
    saveMemoryAddition(db, 'a', 'c1', { ...addition(1), added: 'other' }, 11);
    saveMemoryAddition(db, 'a', 'c2', addition(3), 12);
    saveMemoryAddition(db, 'b', 'c1', addition(5), 13);
    expect(listMemoryAdditions(db, 'a', 'c1')).toEqual([addition(1)]);
    expect(listMemoryAdditions(db, 'b', 'c1')).toEqual([addition(5)]);
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT * FROM memory_additions WHERE agent_id = 'a' AND conversation_id = 'c'`,
      )
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(
      /SEARCH memory_additions USING PRIMARY KEY/,
    );
    expect(deleteMemoryAdditions(db, 'a', 'c1')).toBe(1);
    expect(deleteMemoryAdditions(db, 'a')).toBe(1);
    expect(listMemoryAdditions(db, 'b', 'c1')).toHaveLength(1);
  });

  it('walks a response chain of the same agent only, and prunes old responses', () => {
    const db = dbAt(4);
    migrate(db, 7);
    const row = (id: string, previousId: string | null, createdAt: number) => ({
      id,
      agentId: 'a',
      conversationId: 'c',
      previousId,
      messages: JSON.stringify([{ role: 'user', content: id }]),
      createdAt,
    });
    saveResponse(db, row('r1', null, 1));
    saveResponse(db, row('r2', 'r1', 2));
    saveResponse(db, row('r3', 'r2', 3));
    expect(loadResponseChain(db, 'a', 'r3')?.map((r) => r.id)).toEqual(['r1', 'r2', 'r3']);
    expect(loadResponseChain(db, 'b', 'r3')).toBeNull();
    expect(loadResponseChain(db, 'a', 'nope')).toBeNull();
    expect(pruneResponses(db, 2)).toBe(1);
    // a missing link makes the chain unusable rather than silently shorter
    expect(loadResponseChain(db, 'a', 'r3')).toBeNull();
  });
});
