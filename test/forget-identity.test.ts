// An identity statement ("I live in Lisbon") becomes both a pinned fact and an always-on
// identity override. When the user forgets, disables or corrects that fact, the override
// must follow: otherwise the forgotten text is still injected into every request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContextResponse, Identity, PinnedFact } from '../src/shared/api.ts';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';

interface PinnedList {
  items: PinnedFact[];
  total: number;
}

describe('forgetting an identity fact', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine({ logLevel: 'error' });
  });
  afterAll(async () => {
    await h?.stop();
  });

  /** Ingests one statement (heuristic distiller) and returns the pinned fact it produced. */
  const learn = async (agent: string, statement: string, word: string): Promise<PinnedFact> => {
    const res = await h.api('POST', '/memory/ingest', {
      agent_id: agent,
      conversation_id: `${agent}-c1`,
      turns: [{ user: statement, assistant: 'Noted.' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const identity = await h.api<Identity>('GET', `/memory/identity?agent_id=${agent}`);
    expect(identity.body.overrides.join('\n')).toContain(word);
    const list = await h.api<PinnedList>('GET', `/memory/pinned?agent_id=${agent}`);
    const fact = list.body.items.find((f) => f.content.includes(word));
    expect(fact, JSON.stringify(list.body)).toBeDefined();
    return fact!;
  };
  const block = async (agent: string, message: string): Promise<string> => {
    const res = await h.api<ContextResponse>('POST', '/memory/context', {
      agent_id: agent,
      message,
    });
    expect(res.status).toBe(200);
    return res.body.block;
  };

  it('a forgotten fact is removed from the identity overrides and never injected again', async () => {
    const fact = await learn('ida', 'I live in Lisbon.', 'Lisbon');
    expect(await block('ida', 'Where do I live?')).toContain('Lisbon');

    const del = await h.api('DELETE', `/memory/pinned/${fact.id}?agent_id=ida`);
    expect(del.status).toBe(200);

    const identity = await h.api<Identity>('GET', '/memory/identity?agent_id=ida');
    expect(identity.body.overrides.join('\n')).not.toContain('Lisbon');
    expect(await block('ida', 'Where do I live?')).not.toContain('Lisbon');
  });

  it('a disabled fact is no longer injected through the overrides', async () => {
    const fact = await learn('dan', 'I live in Porto.', 'Porto');
    const res = await h.api('PATCH', `/memory/pinned/${fact.id}?agent_id=dan`, {
      status: 'disabled',
    });
    expect(res.status).toBe(200);
    expect(await block('dan', 'Where do I live?')).not.toContain('Porto');
  });

  it('a corrected fact replaces its override', async () => {
    const fact = await learn('eve', 'I live in Madrid.', 'Madrid');
    const res = await h.api('PATCH', `/memory/pinned/${fact.id}?agent_id=eve`, {
      content: fact.content.replace('Madrid', 'Valencia'),
    });
    expect(res.status).toBe(200);
    const identity = await h.api<Identity>('GET', '/memory/identity?agent_id=eve');
    expect(identity.body.overrides.join('\n')).not.toContain('Madrid');
    expect(identity.body.overrides.join('\n')).toContain('Valencia');
    const injected = await block('eve', 'Where do I live?');
    expect(injected).not.toContain('Madrid');
    expect(injected).toContain('Valencia');
  });

  it('a fact enabled again, or edited back, is injected again', async () => {
    const fact = await learn('hal', 'I live in Genoa.', 'Genoa');
    const patch = (body: object) => h.api('PATCH', `/memory/pinned/${fact.id}?agent_id=hal`, body);
    expect((await patch({ status: 'disabled' })).status).toBe(200);
    expect(await block('hal', 'Where do I live?')).not.toContain('Genoa');
    expect((await patch({ status: 'active' })).status).toBe(200);
    expect(await block('hal', 'Where do I live?')).toContain('Genoa');

    expect((await patch({ content: fact.content.replace('Genoa', 'Turin') })).status).toBe(200);
    const corrected = await block('hal', 'Where do I live?');
    expect(corrected).toContain('Turin');
    expect(corrected).not.toContain('Genoa');
    expect((await patch({ content: fact.content })).status).toBe(200);
    expect(await block('hal', 'Where do I live?')).toContain('Genoa');
  });

  it('overrides of other agents and unrelated overrides are kept', async () => {
    const fact = await learn('fay', 'I live in Lisbon.', 'Lisbon');
    await h.api('PUT', '/memory/identity', {
      agent_id: 'fay',
      overrides: [fact.content, 'Prefers short answers'],
    });
    await learn('gus', 'I live in Lisbon.', 'Lisbon');
    await h.api('DELETE', `/memory/pinned/${fact.id}?agent_id=fay`);
    const fay = await h.api<Identity>('GET', '/memory/identity?agent_id=fay');
    expect(fay.body.overrides).toEqual(['Prefers short answers']);
    const gus = await h.api<Identity>('GET', '/memory/identity?agent_id=gus');
    expect(gus.body.overrides.join('\n')).toContain('Lisbon');
  });
});
