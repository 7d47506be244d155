import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../shared/errors.ts';
import { CairnError } from '../errors.ts';

// DESIGN §10: loopback Host only (DNS rebinding), no foreign browser Origin (CSRF), and the
// access token on every API route.

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** The host name of a Host header (`localhost:1337` → `localhost`, `[::1]:80` → `[::1]`). */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end === -1 ? h : h.slice(0, end + 1);
  }
  const colon = h.indexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(hostName(host));
}

/** Paths that serve the API (token required). Everything else is /health or the static UI. */
const API_PREFIXES = ['/v1/', '/v1?', '/memory', '/agents', '/settings', '/mcp'];
export function isApiPath(url: string): boolean {
  if (url === '/v1') return true;
  return API_PREFIXES.some((p) => url.startsWith(p));
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Compares without leaking the token's length or its common prefix through timing. */
export function tokenMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return m ? m[1]!.trim() : null;
}

export interface SecurityOptions {
  token: string;
  /** Extra Host names allowed besides loopback (when the user opted in to another bind). */
  allowedHosts?: string[];
  /** Extra browser origins allowed besides the server's own (e.g. the desktop renderer). */
  allowedOrigins?: string[];
}

export function registerSecurity(app: FastifyInstance, options: SecurityOptions): void {
  const extraHosts = new Set((options.allowedHosts ?? []).map((h) => hostName(h)));
  const extraOrigins = new Set(options.allowedOrigins ?? []);
  const expectedDigest = digest(options.token);

  app.addHook('onRequest', async (request, reply) => {
    const host = request.headers.host ?? '';
    if (!isLoopbackHost(host) && !extraHosts.has(hostName(host))) {
      throw new CairnError(
        ErrorCode.ForbiddenHost,
        'Requests must address Cairn by a loopback name (127.0.0.1, localhost or [::1]).',
      );
    }
    const origin = request.headers.origin;
    if (origin !== undefined) {
      const own = 'http://' + host.toLowerCase();
      if (origin.toLowerCase() !== own) {
        if (!extraOrigins.has(origin)) {
          throw new CairnError(ErrorCode.ForbiddenOrigin, 'Cross-origin requests are not allowed.');
        }
        // An origin the user allowed (e.g. the renderer's dev server): answer CORS for it
        // alone, and its preflight without a token (browsers never send one there).
        reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
        if (request.method === 'OPTIONS') {
          return reply
            .code(204)
            .header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS')
            .header(
              'access-control-allow-headers',
              'authorization, content-type, x-osaurus-agent-id, x-osaurus-conversation-id',
            )
            .header('access-control-max-age', '600')
            .send();
        }
      }
    }
    if (isApiPath(request.url)) {
      const given = bearerToken(request);
      if (given === null || !timingSafeEqual(digest(given), expectedDigest)) {
        throw new CairnError(
          ErrorCode.Unauthorized,
          given === null
            ? 'Missing access token: send it as "Authorization: Bearer <token>" (the OpenAI API key of your client).'
            : 'Invalid access token.',
        );
      }
    }
  });
}
