import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EngineServices } from '../services.ts';
import { MEMORY_HEADER } from './memory-turn.ts';

// A request without X-Osaurus-Agent-Id gets no memory (DESIGN §5 step 2). Users who expected
// memory see why in the response (`x-cairn-memory: none; reason=no-agent-header`) and in the
// log, once per client and minute so a busy client does not flood it. The log names the
// client by its User-Agent and the wire format, never anything of the request's content.

export const NO_AGENT_HEADER = 'none; reason=no-agent-header';

const LOG_EVERY_MS = 60_000;
/** Clients remembered for the once-a-minute rule; beyond this the oldest is forgotten. */
const MAX_CLIENTS = 256;

/** When each client was last logged, per engine (no state shared between engines). */
const lastLogged = new WeakMap<EngineServices, Map<string, number>>();

function clientOf(request: FastifyRequest): string {
  const ua = request.headers['user-agent'];
  const value = (Array.isArray(ua) ? ua[0] : ua)?.trim() ?? '';
  return value === '' ? 'unknown client' : value.slice(0, 120);
}

/** Sets the header on a request that came without the agent header, and logs it (rate-limited). */
export function answerWithoutAgent(
  services: EngineServices,
  request: FastifyRequest,
  reply: FastifyReply,
  protocol: string,
): void {
  reply.header(MEMORY_HEADER, NO_AGENT_HEADER);
  let seen = lastLogged.get(services);
  if (!seen) {
    seen = new Map();
    lastLogged.set(services, seen);
  }
  const client = clientOf(request);
  const now = services.clock.now();
  const last = seen.get(client);
  if (last !== undefined && now - last < LOG_EVERY_MS) return;
  seen.delete(client);
  seen.set(client, now);
  if (seen.size > MAX_CLIENTS) seen.delete(seen.keys().next().value as string);
  services.logger
    .child('memory')
    .info(
      'a request arrived without the X-Osaurus-Agent-Id header: memory is off for it (set the header to the agent id to remember)',
      { protocol, client },
    );
}
