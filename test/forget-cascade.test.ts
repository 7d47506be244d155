// Forget means forget (issue 12, DESIGN §6), through the real server and proxy: after the user
// forgets a fact, no later memory block carries its wording — not from the fact, not from the
// transcript line that stated it, not from the episode summary — and restoring the fact from
// the trash brings it back.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PinnedFact } from '../src/shared/api.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine();
  h.upstream.setDefault(() => ({ kind: 'chat', content: 'Noted.' }));
});
afterAll(() => h?.stop());

const AGENT = 'forgetful';

/** Asks in a new conversation and returns the memory block the upstream received ('' if none). */
async function blockFor(question: string, conversation: string): Promise<string> {
  const client = new OpenAI({
    baseURL: `${h.url}/v1`,
    apiKey: h.token,
    maxRetries: 0,
    defaultHeaders: { 'X-Osaurus-Agent-Id': AGENT, 'X-Osaurus-Conversation-Id': conversation },
  });
  await client.chat.completions.create({
    model: 'scripted-model',
    messages: [{ role: 'user', content: question }],
  });
  const sent = h.upstream.chatRequests().at(-1)?.body as { messages: { content: string }[] };
  const text = sent.messages.at(-1)?.content ?? '';
  const at = text.indexOf('[Memory]');
  return at === -1 ? '' : text.slice(at);
}

describe('forget cascades to every line that states the fact', () => {
  it('keeps the wording out of later blocks, and a restore brings it back', async () => {
    const ingest = await h.api('POST', '/memory/ingest', {
      agent_id: AGENT,
      conversation_id: 'c1',
      turns: [
        {
          user: "Heads up: I'm allergic to YAML config files, they make me itch.",
          assistant: 'I will suggest TOML from now on.',
        },
        { user: 'I also play the cello on Sundays.', assistant: 'Lovely.' },
      ],
    });
    expect(ingest.status).toBe(200);
    const facts = await h.api<{ items: PinnedFact[] }>('GET', `/memory/pinned?agent_id=${AGENT}`);
    const allergy = facts.body.items.find((f) => /allergic/i.test(f.content));
    expect(allergy, JSON.stringify(facts.body.items)).toBeDefined();

    const question = 'Am I allergic to anything?';
    expect(await blockFor(question, 'q1')).toMatch(/YAML/i);

    const forget = await h.api<{ trash_id: number }>(
      'DELETE',
      `/memory/pinned/${allergy!.id}?agent_id=${AGENT}`,
    );
    expect(forget.status).toBe(200);
    for (const [i, q] of [
      question,
      'What config formats do I hate?',
      'Remind me what I told you about YAML config files',
    ].entries()) {
      expect(await blockFor(q, `after-${i}`)).not.toMatch(/yaml/i);
    }
    // Other memories are still there.
    expect(await blockFor('Which instrument do I play?', 'cello')).toMatch(/cello/i);

    const restore = await h.api('POST', `/memory/trash/${forget.body.trash_id}/restore`);
    expect(restore.status).toBe(200);
    expect(await blockFor(question, 'restored')).toMatch(/YAML/i);
  });

  it('lists the messages a fact came from, and forgets them with it on request', async () => {
    const agent = 'with-sources';
    await h.api('POST', '/memory/ingest', {
      agent_id: agent,
      conversation_id: 'c1',
      turns: [
        { user: 'My manager is Priya Raman, she is great.', assistant: 'Good to know.' },
        { user: 'I play the cello on Sundays.', assistant: 'Lovely.' },
      ],
    });
    const facts = await h.api<{ items: PinnedFact[] }>('GET', `/memory/pinned?agent_id=${agent}`);
    const manager = facts.body.items.find((f) => /Priya/.test(f.content))!;
    expect(manager).toBeDefined();
    const sources = await h.api<{ items: { id: number; content: string }[] }>(
      'GET',
      `/memory/pinned/${manager.id}/sources?agent_id=${agent}`,
    );
    expect(sources.status).toBe(200);
    expect(sources.body.items.map((r) => r.content)).toEqual([
      'My manager is Priya Raman, she is great.',
    ]);
    expect(
      (await h.api('DELETE', `/memory/pinned/${manager.id}?agent_id=${agent}&with_sources=maybe`))
        .status,
    ).toBe(400);

    const forget = await h.api<{ trash_id: number }>(
      'DELETE',
      `/memory/pinned/${manager.id}?agent_id=${agent}&with_sources=true`,
    );
    expect(forget.status).toBe(200);
    const transcript = async () =>
      (
        await h.api<{ items: { content: string }[] }>(
          'GET',
          `/memory/transcript?agent_id=${agent}&conversation_id=c1`,
        )
      ).body.items.map((r) => r.content);
    expect(await transcript()).not.toContain('My manager is Priya Raman, she is great.');
    expect(await transcript()).toContain('I play the cello on Sundays.');
    await h.api('POST', `/memory/trash/${forget.body.trash_id}/restore`);
    expect(await transcript()).toContain('My manager is Priya Raman, she is great.');
  });
});
