import { describe, expect, it } from 'vitest';
import { databaseAtVersionPerTest } from '../../../../../test/helpers/database-per-test.ts';
import { migrate } from '../migrate.ts';
import { recordTurn } from '../transcript.ts';

const dbAt = databaseAtVersionPerTest();

describe('migration 014 (transcript rewrites)', () => {
  it('counts deleted rows and changed text, not appended rows or other columns', () => {
    const db = dbAt(13);
    migrate(db, 14);
    const count = () => (db.prepare('SELECT n FROM transcript_rewrites').get() as { n: number }).n;
    const add = (content: string) =>
      recordTurn(db, {
        agentId: 'a',
        conversationId: 'c',
        messages: [{ role: 'user', content, createdAt: 1 }],
      }).transcriptIds[0]!;
    const first = add('I moved to Lisbon in March');
    add('My manager is Priya');
    expect(count()).toBe(0);
    db.prepare('UPDATE transcript SET created_at = 2 WHERE id = ?').run(first);
    expect(count()).toBe(0);
    db.prepare(`UPDATE transcript SET content = '[private]' WHERE id = ?`).run(first);
    expect(count()).toBe(1);
    db.prepare('DELETE FROM transcript').run();
    expect(count()).toBe(3);
  });
});
