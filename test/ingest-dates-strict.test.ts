// POST /memory/ingest refuses impossible dates (issue 10, item 7): an offset of +99:99, the
// year 9999 or 30 February used to be stored as shifted times. The whole batch is refused
// with a 400 naming the turn and its field, and nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentsResponse } from '../src/shared/api.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

interface ApiError {
  error: { message: string; type: string; code: string };
}

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine({ upstream: null });
});
afterAll(() => h?.stop());

const agentIds = async () =>
  (await h.api<AgentsResponse>('GET', '/agents')).body.agents.map((a) => a.id);

describe('POST /memory/ingest: strict dates', () => {
  it.each([
    ['2023-05-08T13:56:00+99:99', 'offset minutes must be 00 to 59'],
    ['2023-05-08T13:56:00+23:00', 'within ±14:00'],
    ['9999-12-31T23:59:59Z', 'year must be between 1900 and'],
    ['2023-02-30', 'February 2023 has days 1 to 28'],
    ['2023-05-08T25:00:00Z', 'hour must be 00 to 23'],
  ])('%s in the third turn: 400 naming turns.2.date, nothing stored', async (date, reason) => {
    const agent = `strict-${date.replace(/\W/g, '')}`;
    const res = await h.api<ApiError>('POST', '/memory/ingest', {
      agent_id: agent,
      conversation_id: 'c',
      skip_extraction: true,
      turns: [
        { user: 'First turn, fine.', assistant: 'ok', date: '2023-05-08T13:56:00Z' },
        { user: 'Second turn, no date.', assistant: 'ok' },
        { user: 'Third turn.', assistant: 'ok', date },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.message).toMatch(/^turns\.2\.date: /);
    expect(res.body.error.message).toContain(reason);
    expect(await agentIds()).not.toContain(agent);
  });

  it('refuses an impossible session_date by name', async () => {
    const res = await h.api<ApiError>('POST', '/memory/ingest', {
      agent_id: 'strict-session',
      conversation_id: 'c',
      session_date: '1:56 pm on 31 April, 2023',
      turns: [{ user: 'Hello', assistant: 'Hi' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^session_date: .*April 2023 has days 1 to 30/);
    expect(await agentIds()).not.toContain('strict-session');
  });

  it('still takes the formats real exports use', async () => {
    const res = await h.api('POST', '/memory/ingest', {
      agent_id: 'strict-ok',
      conversation_id: 'c',
      session_date: '1:56 pm on 8 May, 2023',
      skip_extraction: true,
      turns: [
        { user: 'zulu', assistant: 'ok', date: '2023-05-08T13:56:00Z' },
        { user: 'offset', assistant: 'ok', date: '2023-05-09T03:56:00+14:00' },
        { user: 'date only', assistant: 'ok', date: '2023-05-08' },
        { user: 'session date', assistant: 'ok' },
      ],
    });
    expect(res).toEqual({ status: 200, body: { status: 'ok', turns_ingested: 4 } });
    const agents = await h.api<AgentsResponse>('GET', '/agents');
    expect(agents.body.agents.find((a) => a.id === 'strict-ok')?.transcript_count).toBe(8);
  });
});
