// Serves the built web renderer (`npm run build:web` → out/renderer-web) at `/`, so the UI
// works from a browser against the headless server and in the end-to-end tests. Static
// files need no token (they hold no data); every API route still does (security.ts).
// The build is small: files are read once into memory, on first request, so a build made
// after start-up is picked up without a restart.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { extname, join, posix, relative, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UI_CONTENT_SECURITY_POLICY } from '../../../shared/csp.ts';
import { ErrorCode } from '../../../shared/errors.ts';
import { CairnError } from '../errors.ts';
import { PUBLIC_ROUTE } from './security.ts';

export interface StaticUiOptions {
  /** Directory of the built renderer (holds index.html and assets/). */
  rootDir: string;
}

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
  immutable: boolean;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/**
 * Whether a path reads as one of the API's, given the first path segments the API's routes
 * use (`/memory`, `/v1`, `/api`...): an unknown one is a JSON 404, never the app's page.
 * However it is spelled (/MEMORY/x, //memory/x, /a/../memory/x, /memory;p=1/x, an
 * absolute-form target), a client or a probe sees a 404, not a 200.
 */
export function isApiLikePath(pathname: string, apiRoots: ReadonlySet<string>): boolean {
  const path = pathname.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/iu, '') || '/';
  const canonical = posix
    .normalize(path.toLowerCase().replace(/;[^/]*/gu, ''))
    .replace(/\/{2,}/gu, '/');
  const root = (canonical.split('/')[1] ?? '').replace(/[\s\p{Cc}]+/gu, '');
  return apiRoots.has(root);
}

/** The first path segments of the registered routes that are not public (the API's). */
function apiRootsOf(app: FastifyInstance): Set<string> {
  const roots = new Set<string>(['health']);
  for (const r of app.registeredRoutes) {
    const root = r.url.split('/')[1]?.toLowerCase() ?? '';
    if (!r.public && root !== '' && !root.startsWith(':') && root !== '*') roots.add(root);
  }
  return roots;
}

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

const MAX_FILES = 2000;
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;

function loadBuild(rootDir: string): Map<string, StaticFile> | null {
  try {
    if (!statSync(join(rootDir, 'index.html')).isFile()) return null;
  } catch {
    return null;
  }
  const files = new Map<string, StaticFile>();
  let total = 0;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const body = readFileSync(full);
        total += body.length;
        if (files.size >= MAX_FILES || total > MAX_TOTAL_BYTES) {
          throw new Error(`The UI build in ${rootDir} is unexpectedly large.`);
        }
        const urlPath = '/' + relative(rootDir, full).split(sep).join('/');
        files.set(urlPath, {
          body,
          type: contentTypeOf(full),
          etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
          // Vite fingerprints everything under assets/: safe to cache forever.
          immutable: urlPath.startsWith('/assets/'),
        });
      }
    }
  };
  walk(rootDir);
  return files;
}

const NO_BUILD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cairn</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">
<h1>Cairn is running</h1>
<p>The web UI has not been built. Run <code>npm run build:web</code>, then reload this page.</p>
<p>The API is available: see <a href="/health">/health</a>.</p>
</body></html>`;

function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', UI_CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY');
}

/**
 * Registers `GET /` and a `GET /*` fallback: files of the build by exact path, the SPA's
 * index.html for other page paths, a JSON 404 for unknown API paths and missing assets.
 * Fastify matches static routes before the wildcard, so API routes are not shadowed.
 */
export function registerStaticUi(app: FastifyInstance, { rootDir }: StaticUiOptions): void {
  let build: Map<string, StaticFile> | null = null;
  // Read when the first page is served: every route is registered by then.
  let apiRoots: Set<string> | null = null;

  const current = (): Map<string, StaticFile> | null => {
    if (build === null) build = loadBuild(rootDir);
    return build;
  };

  const sendFile = (request: FastifyRequest, reply: FastifyReply, file: StaticFile) => {
    securityHeaders(reply)
      .header('content-type', file.type)
      .header('etag', file.etag)
      .header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
    return reply.code(200).send(file.body);
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = decodePath(request.url);
    if (pathname === null) {
      throw new CairnError(ErrorCode.BadRequest, 'Malformed path.');
    }
    apiRoots ??= apiRootsOf(app);
    if (isApiLikePath(pathname, apiRoots)) {
      throw new CairnError(ErrorCode.NotFound, `No route ${request.method} ${pathname}.`);
    }
    const files = current();
    if (!files) {
      return securityHeaders(reply)
        .code(pathname === '/' || pathname === '/index.html' ? 200 : 404)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(NO_BUILD_PAGE);
    }
    const exact = files.get(pathname === '/' ? '/index.html' : pathname);
    if (exact) return sendFile(request, reply, exact);
    // A path with an extension is a missing asset, not a page of the app.
    if (extname(pathname) !== '') {
      throw new CairnError(ErrorCode.NotFound, `No file ${pathname}.`);
    }
    const index = files.get('/index.html');
    if (!index) throw new CairnError(ErrorCode.NotFound, 'The UI build has no index.html.');
    return sendFile(request, reply, index);
  };

  // Public (no token): the files of the build hold no data. An API path that reaches the
  // wildcard matched no API route, and gets a JSON 404 above.
  app.get('/', PUBLIC_ROUTE, handler);
  app.get('/*', PUBLIC_ROUTE, handler);
}

function decodePath(url: string): string | null {
  const q = url.indexOf('?');
  const raw = q === -1 ? url : url.slice(0, q);
  try {
    const decoded = decodeURIComponent(raw);
    if (decoded.includes('\0')) return null;
    return decoded;
  } catch {
    return null;
  }
}
