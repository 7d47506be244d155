// The memory admin API through the real server: browse, edit, pin, disable and forget,
// identity, transcript, consolidation, stats and diagnostics — agent-scoped throughout.
import { afterEach, describe, expect, it } from 'vitest';
import type {
  ConsolidationRun,
  DiagnosticsResponse,
  Episode,
  Identity,
  PinnedFact,
  StatsResponse,
  TranscriptRow,
} from '../src/shared/api.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';
import type { RecordedRequest } from './helpers/scripted-upstream.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface List<T> {
  items: T[];
  total: number;
}
interface ApiError {
  error: { message: string; type: string; code: string };
}

async function engine(coreModel?: string): Promise<EngineHarness> {
  const h = await startEngine({
    config: {
      ...(coreModel ? { coreModel } : {}),
      distiller: { debounceMsOverride: 50, retryDelayMs: 20, recoverDelayMs: 20 },
    },
  });
  cleanups.push(() => h.stop());
  return h;
}

async function ingest(h: EngineHarness, agent: string, conversation: string, user: string) {
  const r = await h.api('POST', '/memory/ingest', {
    agent_id: agent,
    conversation_id: conversation,
    turns: [{ user, assistant: 'Noted.' }],
  });
  expect(r.status).toBe(200);
}

async function searchPinned(h: EngineHarness, agent: string, query: string): Promise<number[]> {
  const r = await h.api<{ results: { id: number }[] }>('POST', '/memory/search', {
    agent_id: agent,
    scope: 'pinned',
    query,
  });
  expect(r.status).toBe(200);
  return r.body.results.map((x) => x.id);
}

describe('memory admin API', () => {
  it('lists, creates, edits, disables and forgets pinned facts, scoped by agent', async () => {
    const h = await engine();
    await ingest(h, 'ada', 'c1', 'I love hiking. I prefer tea over coffee.');
    await ingest(h, 'bob', 'c2', 'I love chess.');

    const list = await h.api<List<PinnedFact>>('GET', '/memory/pinned?agent_id=ada');
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.items.map((f) => f.content).sort()).toEqual([
      'User loves hiking',
      'User prefers tea over coffee',
    ]);
    expect(list.body.items.every((f) => f.agent_id === 'ada' && !f.pinned_by_user)).toBe(true);

    const created = await h.api<PinnedFact>('POST', '/memory/pinned', {
      agent_id: 'ada',
      content: 'User is allergic to penicillin',
      tags: ['health'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      pinned_by_user: true,
      status: 'active',
      tags: ['health'],
    });
    const id = created.body.id;
    expect(await searchPinned(h, 'ada', 'penicillin')).toContain(id);

    // another agent cannot see, edit or delete it
    expect((await h.api('GET', `/memory/pinned/${id}?agent_id=bob`)).status).toBe(404);
    expect(
      (await h.api('PATCH', `/memory/pinned/${id}?agent_id=bob`, { status: 'disabled' })).status,
    ).toBe(404);
    expect((await h.api('DELETE', `/memory/pinned/${id}?agent_id=bob`)).status).toBe(404);
    expect(await searchPinned(h, 'bob', 'penicillin')).toEqual([]);

    // edit: FTS follows the new content
    const edited = await h.api<PinnedFact>('PATCH', `/memory/pinned/${id}?agent_id=ada`, {
      content: 'User is allergic to amoxicillin',
      salience: 0.95,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      content: 'User is allergic to amoxicillin',
      salience: 0.95,
    });
    expect(await searchPinned(h, 'ada', 'amoxicillin')).toContain(id);
    expect(await searchPinned(h, 'ada', 'penicillin')).not.toContain(id);

    // disable, filter by status, sort, q, paginate
    await h.api('PATCH', `/memory/pinned/${id}?agent_id=ada`, { status: 'disabled' });
    const active = await h.api<List<PinnedFact>>(
      'GET',
      '/memory/pinned?agent_id=ada&status=active',
    );
    expect(active.body.items.map((f) => f.id)).not.toContain(id);
    const disabled = await h.api<List<PinnedFact>>(
      'GET',
      '/memory/pinned?agent_id=ada&status=disabled',
    );
    expect(disabled.body.items.map((f) => f.id)).toEqual([id]);
    const q = await h.api<List<PinnedFact>>('GET', '/memory/pinned?agent_id=ada&q=tea');
    expect(q.body.items.map((f) => f.content)).toEqual(['User prefers tea over coffee']);
    const page = await h.api<List<PinnedFact>>(
      'GET',
      '/memory/pinned?agent_id=ada&sort=salience&limit=1&offset=0',
    );
    expect(page.body).toMatchObject({ total: 3 });
    expect(page.body.items).toHaveLength(1);
    expect(page.body.items[0]!.id).toBe(id);

    // forget
    const del = await h.api('DELETE', `/memory/pinned/${id}?agent_id=ada`);
    expect(del).toEqual({ status: 200, body: { deleted: true, id, trash_id: expect.any(Number) } });
    expect((await h.api('GET', `/memory/pinned/${id}?agent_id=ada`)).status).toBe(404);
    expect(await searchPinned(h, 'ada', 'amoxicillin')).toEqual([]);
  });

  it('answers bad ids and missing agent_id with OpenAI-shaped 400s', async () => {
    const h = await engine();
    const bad = await h.api<ApiError>('GET', '/memory/pinned/abc?agent_id=ada');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'validation_failed',
    });
    expect((await h.api('GET', '/memory/pinned/1')).status).toBe(400);
    expect((await h.api('GET', '/memory/pinned')).status).toBe(400);
    expect((await h.api('PATCH', '/memory/pinned/1?agent_id=ada', {})).status).toBe(400);
    expect((await h.api('POST', '/memory/pinned', { agent_id: 'ada', content: '  ' })).status).toBe(
      400,
    );
    const missing = await h.api<ApiError>('GET', '/memory/episodes/999?agent_id=ada');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    expect(
      (
        await h.api('GET', '/memory/pinned?agent_id=ada', undefined, {
          authorization: 'Bearer nope',
        })
      ).status,
    ).toBe(401);
  });

  it('browses, edits and forgets episodes; identity; transcript', async () => {
    const h = await engine();
    await ingest(h, 'ada', 'trip', 'My name is Ada. We decided to fly to Lisbon in May.');
    const eps = await h.api<List<Episode>>('GET', '/memory/episodes?agent_id=ada');
    expect(eps.body.total).toBe(1);
    const ep = eps.body.items[0]!;
    expect(ep.conversation_id).toBe('trip');
    expect((await h.api<List<Episode>>('GET', '/memory/episodes?agent_id=bob')).body.total).toBe(0);

    const patched = await h.api<Episode>('PATCH', `/memory/episodes/${ep.id}?agent_id=ada`, {
      summary: 'Ada booked flights to Porto.',
      topics: ['travel'],
    });
    expect(patched.body).toMatchObject({
      summary: 'Ada booked flights to Porto.',
      topics: ['travel'],
    });
    const found = await h.api<{ results: { id: number }[] }>('POST', '/memory/search', {
      agent_id: 'ada',
      scope: 'episodes',
      query: 'Porto',
    });
    expect(found.body.results.map((r) => r.id)).toContain(ep.id);

    const identity = await h.api<Identity>('GET', '/memory/identity?agent_id=ada');
    expect(identity.body.overrides).toContain("User's name is Ada");
    const put = await h.api<Identity>('PUT', '/memory/identity', {
      agent_id: 'ada',
      narrative: 'Ada is a data engineer.',
      overrides: ['User prefers metric units'],
    });
    expect(put.body).toMatchObject({
      narrative: 'Ada is a data engineer.',
      overrides: ['User prefers metric units'],
    });
    expect(put.body.updated_at).not.toBeNull();
    expect((await h.api<Identity>('GET', '/memory/identity?agent_id=bob')).body.overrides).toEqual(
      [],
    );

    const transcript = await h.api<List<TranscriptRow>>(
      'GET',
      '/memory/transcript?agent_id=ada&conversation_id=trip',
    );
    expect(transcript.body.items.map((r) => r.role)).toEqual(['user', 'assistant']);
    const rowId = transcript.body.items[1]!.id;
    expect((await h.api('DELETE', `/memory/transcript/${rowId}?agent_id=bob`)).status).toBe(404);
    expect((await h.api('DELETE', `/memory/transcript/${rowId}?agent_id=ada`)).body).toEqual({
      deleted: true,
      trash_id: expect.any(Number),
      id: rowId,
    });
    expect(
      (await h.api<List<TranscriptRow>>('GET', '/memory/transcript?agent_id=ada')).body.total,
    ).toBe(1);

    expect((await h.api('DELETE', `/memory/episodes/${ep.id}?agent_id=ada`)).body).toEqual({
      deleted: true,
      trash_id: expect.any(Number),
      id: ep.id,
    });
    expect((await h.api('GET', `/memory/episodes/${ep.id}?agent_id=ada`)).status).toBe(404);
  });

  it('runs consolidation, lists runs and reports stats', async () => {
    const h = await engine();
    await ingest(h, 'ada', 'c1', 'I love hiking.');
    const run = await h.api<ConsolidationRun>('POST', '/memory/consolidate', {});
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ trigger: 'manual', status: 'ok', agent_id: null });
    expect(Object.keys(run.body.counts).sort()).toEqual(
      ['decayed', 'evicted', 'merged', 'promoted', 'pruned_episodes', 'pruned_transcript'].sort(),
    );
    const scoped = await h.api<ConsolidationRun>('POST', '/memory/consolidate', {
      agent_id: 'ada',
    });
    expect(scoped.body.agent_id).toBe('ada');
    const runs = await h.api<{ runs: ConsolidationRun[] }>('GET', '/memory/consolidation/runs');
    expect(runs.body.runs.map((r) => r.id)).toEqual([scoped.body.id, run.body.id]);
    const stats = await h.api<StatsResponse>('GET', '/memory/stats');
    expect(stats.body).toMatchObject({
      agents: 1,
      pinned: 1,
      episodes: 1,
      transcript: 2,
      pending: 0,
      dead_letters: 0,
    });
    expect(stats.body.db_size_bytes).toBeGreaterThan(0);
    expect(stats.body.history).toHaveLength(1);
    expect(stats.body.history[0]).toMatchObject({ pinned: 1, episodes: 1 });
  });

  it('shows dead letters in diagnostics and retries them', async () => {
    const h = await engine('scripted-core');
    let healthy = false;
    const digest = {
      episode: {
        summary: 'Ada likes jazz.',
        topics: ['music'],
        entities: [],
        decisions: [],
        action_items: [],
        salience: 0.6,
      },
      pinned_candidates: [{ content: 'User likes jazz', salience: 0.7, tags: [] }],
      identity_facts: [],
    };
    h.upstream.setDefault((r: RecordedRequest) => {
      const json = (r.body as { response_format?: unknown }).response_format !== undefined;
      if (json && healthy) return { kind: 'digest', digest };
      if (json) return { kind: 'error', status: 500, message: 'model crashed' };
      return { kind: 'chat', content: 'ok' };
    });
    await ingest(h, 'ada', 'c1', 'I like jazz.');
    const diag = await h.api<DiagnosticsResponse>('GET', '/memory/diagnostics');
    expect(diag.status).toBe(200);
    expect(diag.body.dead_letters).toHaveLength(1);
    const dead = diag.body.dead_letters[0]!;
    expect(dead).toMatchObject({
      agent_id: 'ada',
      conversation_id: 'c1',
      status: 'dead_letter',
      attempts: 3,
    });
    expect(dead.last_error).toMatch(/502|upstream|crashed/i);
    expect(diag.body.processing_log.map((l) => l.status).slice(0, 3)).toEqual([
      'dead_letter',
      'error',
      'error',
    ]);
    expect(diag.body.embedder.status).toBe('disabled');

    expect((await h.api('POST', '/memory/diagnostics/retry/99999')).status).toBe(404);
    healthy = true;
    const retry = await h.api<{ status: string }>('POST', `/memory/diagnostics/retry/${dead.id}`);
    expect(retry.status).toBe(200);
    expect(retry.body.status).toBe('pending');
    const deadline = Date.now() + 5000;
    let eps: List<Episode> = { items: [], total: 0 };
    while (Date.now() < deadline) {
      eps = (await h.api<List<Episode>>('GET', '/memory/episodes?agent_id=ada')).body;
      if (eps.items[0]?.summary === 'Ada likes jazz.') break;
      await new Promise((r) => setTimeout(r, 30));
    }
    expect(eps.items[0]!.summary).toBe('Ada likes jazz.');
    expect(
      (await h.api<DiagnosticsResponse>('GET', '/memory/diagnostics')).body.dead_letters,
    ).toHaveLength(0);
    expect((await h.api('POST', `/memory/diagnostics/retry/${dead.id}`)).status).toBe(409);
  });
});
