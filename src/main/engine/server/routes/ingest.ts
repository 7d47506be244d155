import type { FastifyInstance } from 'fastify';
import { IngestRequest, type IngestResponse } from '../../../../shared/api.ts';
import { ErrorCode } from '../../../../shared/errors.ts';
import { CairnError } from '../../errors.ts';
import type { EngineServices } from '../../services.ts';
import type { TranscriptMessage } from '../../store/transcript.ts';
import type { TranscriptWriter } from '../../store/transcript-writer.ts';
import type { BackgroundTasks } from '../background.ts';
import { parseIngestDate } from '../ingest-dates.ts';
import { parseWith } from '../validate.ts';

export interface IngestRouteOptions {
  background: BackgroundTasks;
  writer: TranscriptWriter;
  ingestBodyLimit: number;
}

/**
 * The time of `text`, null when absent; a text that is not a real date refuses the whole
 * ingest with a 400 naming the field (`turns.3.date`), before anything is stored.
 */
function dateOf(text: string | undefined, field: string, now: number): number | null {
  if (text === undefined) return null;
  const parsed = parseIngestDate(text, now);
  if (!parsed.ok) {
    throw new CairnError(
      ErrorCode.ValidationFailed,
      `${field}: "${text.slice(0, 60)}" is not a valid date: ${parsed.reason} (use ISO 8601, e.g. 2023-05-08T13:56:00Z, or "1:56 pm on 8 May, 2023").`,
    );
  }
  return parsed.at;
}

/**
 * POST /memory/ingest (Osaurus-compatible): a batch of turns becomes transcript rows plus
 * one pending signal, in one transaction, and the answer is sent only after the commit.
 *
 * Durability: the database runs in WAL mode with synchronous=NORMAL, where a committed
 * transaction survives a killed process (it is in the WAL, in the OS cache) but could be
 * lost on power loss. An acknowledged ingest must never be lost, so this write runs with
 * synchronous=FULL, which fsyncs the WAL at commit (https://www.sqlite.org/pragma.html#pragma_synchronous).
 * One fsync per batch costs little next to the batch itself; the chat hot path keeps NORMAL.
 * The write runs on the transcript writer (a worker thread), so a large batch does not stall
 * the requests served meanwhile.
 */
export function registerIngestRoutes(
  app: FastifyInstance,
  services: EngineServices,
  options: IngestRouteOptions,
): void {
  const log = services.logger.child('ingest');
  app.post('/memory/ingest', { bodyLimit: options.ingestBodyLimit }, async (request) => {
    const req = parseWith(IngestRequest, request.body);
    const now = services.clock.now();
    const sessionAt = dateOf(req.session_date, 'session_date', now);
    const messages: TranscriptMessage[] = [];
    for (let i = 0; i < req.turns.length; i++) {
      const turn = req.turns[i]!;
      const at = dateOf(turn.date, `turns.${i}.date`, now) ?? sessionAt ?? now;
      if (turn.user !== '') messages.push({ role: 'user', content: turn.user, createdAt: at });
      if (turn.assistant !== '') {
        messages.push({ role: 'assistant', content: turn.assistant, createdAt: at });
      }
    }
    if (messages.length === 0) {
      throw new CairnError(ErrorCode.ValidationFailed, 'turns: every turn is empty.');
    }

    const { transcriptIds } = await options.writer.record(
      {
        agentId: req.agent_id,
        conversationId: req.conversation_id,
        messages,
        now,
        distil: req.skip_extraction !== true,
      },
      { durable: true },
    );
    log.debug('ingested', { agent: req.agent_id, rows: transcriptIds.length });

    if (!req.skip_extraction) {
      try {
        await services.distiller.distilNow(req.agent_id, req.conversation_id);
      } catch (err) {
        // The turns are stored and their signal stays pending: distillation is retried.
        log.warn('distillation after ingest failed', { err: (err as Error).message });
      }
    }
    const vectors = services.vectors;
    if (vectors) {
      options.background.run('index-ingest', () =>
        vectors.indexRows(
          'transcript',
          transcriptIds.map((id, i) => ({ id, agentId: req.agent_id, text: messages[i]!.content })),
        ),
      );
    }
    const response: IngestResponse = { status: 'ok', turns_ingested: req.turns.length };
    return response;
  });
}
