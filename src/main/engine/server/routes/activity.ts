// GET /memory/activity (issue 12, item 1): what memory did for recent requests with the agent
// header: when, which agent and conversation, the wire format, the section, the tokens, the
// x-cairn-memory value, and every injected line with the memory row it came from. The lines'
// text is answered only while the user keeps it (`activityKeepLines`); otherwise it is null.
import type { FastifyInstance } from 'fastify';
import {
  ActivityQuery,
  ActivitySourceQuery,
  MemorySection,
  type ActivityItem,
  type ActivityResponse,
  type ActivitySourceResponse,
} from '../../../../shared/api.ts';
import { ErrorCode } from '../../../../shared/errors.ts';
import { CairnError } from '../../errors.ts';
import type { EngineServices } from '../../services.ts';
import { getEpisode } from '../../store/episodes.ts';
import { getIdentity } from '../../store/identity.ts';
import type { Db } from '../../store/db.ts';
import { getPinned } from '../../store/pinned.ts';
import { getTranscriptRow } from '../../store/transcript.ts';
import {
  clearActivityLines,
  listActivity,
  type ActivityRecord,
} from '../../store/memory-activity.ts';
import { parseWith } from '../validate.ts';

function toItem(r: ActivityRecord, showText: boolean): ActivityItem {
  const section = MemorySection.safeParse(r.section);
  return {
    id: r.id,
    at: new Date(r.at).toISOString(),
    agent_id: r.agentId,
    conversation_id: r.conversationId,
    protocol: r.protocol,
    section: section.success ? section.data : 'none',
    tokens: r.tokens,
    header: r.header,
    lines: r.sources.map((source, i) => ({
      text: showText ? (r.lines?.[i] ?? null) : null,
      source,
    })),
  };
}

const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());

/** The row as it is now, or null when it is gone (forgotten, pruned, another agent's). */
function currentSource(
  db: Db,
  q: { agent_id: string; scope: ActivitySourceResponse['scope']; id?: number | undefined },
): ActivitySourceResponse | null {
  const id = q.id ?? null;
  const source = (
    text: string,
    conversationId: string | null,
    createdAt: string | null,
  ): ActivitySourceResponse => ({
    scope: q.scope,
    id,
    text,
    conversation_id: conversationId,
    created_at: createdAt,
  });
  if (q.scope === 'identity') {
    const identity = getIdentity(db, q.agent_id);
    const text = id === null ? identity.narrative : identity.overrides[id];
    return text ? source(text, null, iso(identity.updated_at)) : null;
  }
  if (id === null) return null;
  if (q.scope === 'pinned') {
    const f = getPinned(db, q.agent_id, id);
    return f && source(f.content, null, iso(f.created_at));
  }
  if (q.scope === 'episodes') {
    const e = getEpisode(db, q.agent_id, id);
    return e && source(e.summary, e.conversation_id, iso(e.created_at));
  }
  const t = getTranscriptRow(db, q.agent_id, id);
  return t && source(t.content, t.conversation_id, t.created_at);
}

export function registerActivityRoutes(app: FastifyInstance, services: EngineServices): void {
  const { db, settings } = services;

  // Turning the option off forgets the text kept so far, not only what comes next.
  const stopListening = settings.onChange((next, prev) => {
    if (prev.activityKeepLines && !next.activityKeepLines) clearActivityLines(db);
  });
  app.addHook('onClose', async () => stopListening());

  app.get('/memory/activity', async (request): Promise<ActivityResponse> => {
    const q = parseWith(ActivityQuery, request.query, 'query');
    const showText = settings.get().activityKeepLines;
    const records = listActivity(db, {
      ...(q.agent_id !== undefined ? { agentId: q.agent_id } : {}),
      limit: q.limit,
    });
    return { items: records.map((r) => toItem(r, showText)) };
  });

  /** Shown when the user opens a line's source: the memory itself, not the activity log. */
  app.get('/memory/activity/source', async (request): Promise<ActivitySourceResponse> => {
    const q = parseWith(ActivitySourceQuery, request.query, 'query');
    const found = currentSource(db, q);
    if (!found) throw new CairnError(ErrorCode.NotFound, 'This memory no longer exists.');
    return found;
  });
}
