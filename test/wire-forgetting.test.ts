// Forgetting in the wire-format state (issues 12 and 13), through the real server and the
// official openai client. Deleting a conversation or an agent moves its stored OpenAI Responses
// to the trash with the rest (a restore brings them back, so previous_response_id works again)
// and drops the memory blocks remembered for its messages (a cache). Forgetting a fact drops
// the agent's remembered blocks, so a client re-sending an old message no longer gets the
// fact's wording back inside the block Cairn once added to it.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeletionResponse } from '../src/shared/api.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine();
});
afterAll(() => h?.stop());
beforeEach(() => h.upstream.reset());

const QUESTION = 'Do you remember what I named my hive?';

async function pin(agentId: string, content: string): Promise<number> {
  const res = await h.api<{ id: number }>('POST', '/memory/pinned', {
    agent_id: agentId,
    content,
    pinned_by_user: true,
  });
  expect(res.status).toBeLessThan(300);
  return res.body.id;
}

const openai = (agentId: string, conversationId?: string) =>
  new OpenAI({
    baseURL: h.url + '/v1',
    apiKey: h.token,
    maxRetries: 0,
    defaultHeaders: {
      'X-Osaurus-Agent-Id': agentId,
      ...(conversationId ? { 'X-Osaurus-Conversation-Id': conversationId } : {}),
    },
  });

const rowsOf = (table: string, agentId: string, order = 'id') =>
  h.services.db
    .prepare(`SELECT * FROM ${table} WHERE agent_id = ? ORDER BY ${order}`)
    .all(agentId) as Record<string, unknown>[];
const additions = (agentId: string) =>
  rowsOf('memory_additions', agentId, 'conversation_id, message_index');
const conversationsOf = (rows: Record<string, unknown>[]) =>
  [...new Set(rows.map((r) => r.conversation_id))].sort();

/** Two chained Responses turns in one conversation; the first gets a memory block. */
async function chainedResponses(agentId: string, conversationId: string): Promise<string> {
  const client = openai(agentId, conversationId);
  const first = await client.responses.create({ model: 'local-model', input: QUESTION });
  const second = await client.responses.create({
    model: 'local-model',
    previous_response_id: first.id,
    input: 'Thanks!',
  });
  return second.id;
}

describe('deleting a conversation or an agent', () => {
  it("moves the conversation's stored Responses to the trash and drops its memory blocks", async () => {
    await pin('codex-del', 'The user keeps bees in Lisbon and calls the hive Honeybadger.');
    const lastDeleted = await chainedResponses('codex-del', 'doomed');
    const lastKept = await chainedResponses('codex-del', 'kept');
    await h.idle();
    expect(conversationsOf(rowsOf('response_chain', 'codex-del'))).toEqual(['doomed', 'kept']);
    expect(conversationsOf(additions('codex-del'))).toEqual(['doomed', 'kept']);
    const doomedResponses = rowsOf('response_chain', 'codex-del').filter(
      (r) => r.conversation_id === 'doomed',
    );
    const kept = {
      responses: rowsOf('response_chain', 'codex-del').filter((r) => r.conversation_id === 'kept'),
      additions: additions('codex-del').filter((r) => r.conversation_id === 'kept'),
    };

    const del = await h.api<DeletionResponse>(
      'DELETE',
      '/memory/conversations/doomed?agent_id=codex-del',
    );
    expect(del.status).toBe(200);
    expect(del.body.counts).toMatchObject({ response_chain: 2, transcript: 4 });
    expect(rowsOf('response_chain', 'codex-del')).toEqual(kept.responses);
    expect(additions('codex-del')).toEqual(kept.additions);
    // The deleted chain cannot be continued; the other one still can.
    await expect(
      openai('codex-del').responses.create({
        model: 'local-model',
        previous_response_id: lastDeleted,
        input: 'And?',
      }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await openai('codex-del').responses.create({
      model: 'local-model',
      previous_response_id: lastKept,
      input: 'And?',
      store: false,
    });

    const restored = await h.api('POST', `/memory/trash/${del.body.trash_id}/restore`);
    expect(restored.status).toBe(200);
    expect(
      rowsOf('response_chain', 'codex-del').filter((r) => r.conversation_id === 'doomed'),
    ).toEqual(doomedResponses);
    // The blocks were a cache: they stay gone (the conversation's next request gets a fresh one).
    expect(additions('codex-del').filter((r) => r.conversation_id === 'doomed')).toEqual([]);
    h.upstream.reset();
    await openai('codex-del').responses.create({
      model: 'local-model',
      previous_response_id: lastDeleted,
      input: 'And?',
    });
    const replayed = (h.upstream.chatRequests()[0]!.body as { messages: { role: string }[] })
      .messages;
    expect(replayed.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
  });

  it("moves an agent's stored Responses to the trash and drops its memory blocks; others stay", async () => {
    for (const agent of ['codex-gone', 'codex-other']) {
      await pin(agent, 'The user keeps bees in Lisbon and calls the hive Honeybadger.');
      await chainedResponses(agent, 'c1');
      await chainedResponses(agent, 'c2');
    }
    await h.idle();
    const gone = rowsOf('response_chain', 'codex-gone');
    const other = {
      responses: rowsOf('response_chain', 'codex-other'),
      additions: additions('codex-other'),
    };
    expect(gone).toHaveLength(4);
    expect(additions('codex-gone')).toHaveLength(2);

    const del = await h.api<DeletionResponse>('DELETE', '/agents/codex-gone');
    expect(del.status).toBe(200);
    expect(del.body.counts.response_chain).toBe(4);
    expect(rowsOf('response_chain', 'codex-gone')).toEqual([]);
    expect(additions('codex-gone')).toEqual([]);
    expect(rowsOf('response_chain', 'codex-other')).toEqual(other.responses);
    expect(additions('codex-other')).toEqual(other.additions);

    expect((await h.api('POST', `/memory/trash/${del.body.trash_id}/restore`)).status).toBe(200);
    expect(rowsOf('response_chain', 'codex-gone')).toEqual(gone);
  });
});

describe('forgetting a fact', () => {
  const FACT = 'The user keeps bees in Porto and calls the hive Quillbert.';
  const WORDING = 'Quillbert';

  type Msg = { role: 'user' | 'assistant'; content: string };
  const sent = (i: number) => JSON.stringify(h.upstream.chatRequests()[i]!.body);

  /** Three chat turns; the first one's block states the fact and is re-sent in the others. */
  async function threeTurns(agentId: string): Promise<Msg[]> {
    const client = openai(agentId, 'bees');
    const history: Msg[] = [];
    for (const q of [QUESTION, 'How do bees survive the winter?', 'And in summer?']) {
      history.push({ role: 'user', content: q });
      const r = await client.chat.completions.create({
        model: 'scripted-model',
        messages: history,
      });
      history.push({ role: 'assistant', content: r.choices[0]!.message.content ?? '' });
    }
    // Turn 3 re-sent turn 1's message with the block it got: the fact's wording.
    const third = h.upstream.chatRequests()[2]!.body as { messages: Msg[] };
    expect(third.messages[0]!.content.startsWith(`${QUESTION}\n\n[Memory]`)).toBe(true);
    expect(third.messages[0]!.content).toContain(WORDING);
    return history;
  }

  const forgetWays: [string, string, (agentId: string, id: number) => Promise<number>][] = [
    [
      'DELETE /memory/pinned/:id',
      'forgetful-one',
      async (agentId, id) =>
        (await h.api('DELETE', `/memory/pinned/${id}?agent_id=${agentId}`)).status,
    ],
    [
      'a selection, POST /memory/delete',
      'forgetful-selection',
      async (agentId, id) =>
        (await h.api('POST', '/memory/delete', { agent_id: agentId, pinned: [id] })).status,
    ],
  ];

  it.each(forgetWays)(
    'keeps its wording out of a re-sent block (%s)',
    async (_way, agentId, forget) => {
      const factId = await pin(agentId, FACT);
      const history = await threeTurns(agentId);
      await h.idle();
      expect(await forget(agentId, factId)).toBe(200);
      expect(additions(agentId)).toEqual([]);

      // Turn 4 re-sends turn 1's message (and everything since) as clients do.
      history.push({ role: 'user', content: 'One more question about honey.' });
      await openai(agentId, 'bees').chat.completions.create({
        model: 'scripted-model',
        messages: history,
      });
      expect(h.upstream.chatRequests()).toHaveLength(4);
      expect(sent(3)).not.toContain(WORDING);
      const fourth = h.upstream.chatRequests()[3]!.body as { messages: Msg[] };
      expect(fourth.messages[0]!.content).toBe(QUESTION);
    },
  );
});
