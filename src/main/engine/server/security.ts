import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../shared/errors.ts';
import { CairnError } from '../errors.ts';

// DESIGN §10: loopback Host only (DNS rebinding), no foreign browser Origin (CSRF), and the
// access token on every route that is not explicitly public (DESIGN §9: default-deny).
//
// The token check is decided on the route the router matched, never on the raw request
// target: the router decodes percent-escapes, collapses nothing and accepts absolute-form
// targets, so any check on `request.url` can be bypassed by spelling the path differently.
// A route is public only when it says so with `config: { public: true }`; unmatched requests
// (the 404 handler) are not public either.

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without the access token (only `/health` and the static UI files). */
    public?: boolean;
  }
}

/** Route options that mark a route public (no token). Everything else needs the token. */
export const PUBLIC_ROUTE = { config: { public: true } } as const;

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

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return m ? m[1]!.trim() : null;
}

/** The token as Anthropic clients send their API key (`x-api-key`). */
export function apiKeyToken(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  if (typeof header !== 'string') return null;
  const v = header.trim();
  return v === '' ? null : v;
}

export interface RegisteredRoute {
  method: string;
  url: string;
  public: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after security (for the default-deny test and diagnostics). */
    registeredRoutes: readonly RegisteredRoute[];
  }
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

  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routes.push({ method, url: route.url, public: route.config?.public === true });
    }
  });

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
              'authorization, x-api-key, content-type, x-osaurus-agent-id, x-osaurus-conversation-id',
            )
            .header('access-control-max-age', '600')
            .send();
        }
      }
    }
    if (request.routeOptions.config?.public !== true) {
      const given = bearerToken(request) ?? apiKeyToken(request);
      if (given === null || !timingSafeEqual(digest(given), expectedDigest)) {
        throw new CairnError(
          ErrorCode.Unauthorized,
          given === null
            ? 'Missing access token: send it as "Authorization: Bearer <token>" (the OpenAI API key of your client) or as "x-api-key" (Anthropic clients).'
            : 'Invalid access token.',
        );
      }
    }
  });
}
