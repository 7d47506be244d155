// GET /memory/activity (issue 12, item 1): what memory did for recent requests with the agent
// header: when, which agent and conversation, the wire format, the section, the tokens, the
// x-cairn-memory value, and every injected line with the memory row it came from. The lines'
// text is answered only while the user keeps it (`activityKeepLines`); otherwise it is null.
import type { FastifyInstance } from 'fastify';
import {
  ActivityQuery,
  MemorySection,
  type ActivityItem,
  type ActivityResponse,
} from '../../../../shared/api.ts';
import type { EngineServices } from '../../services.ts';
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
}
