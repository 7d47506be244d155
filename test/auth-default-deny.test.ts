// Default-deny authentication (DESIGN §9): every registered route, under every spelling of
// its path a client or a web page can send, answers 401 (or 404) without the token. The
// routes come from the running server itself, so a route added later is walked too, and a
// route marked public must be listed here on purpose.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

/** The only routes reachable without the token: health and the static UI files. */
const PUBLIC = new Set(['GET /health', 'HEAD /health', 'GET /', 'HEAD /', 'GET /*', 'HEAD /*']);

let h: EngineHarness;
let port: number;
let uiDir: string;
beforeAll(async () => {
  // A built UI, so the app's page fallback (200 for any page path) is in play.
  uiDir = mkdtempSync(join(tmpdir(), 'cairn-ui-'));
  mkdirSync(join(uiDir, 'assets'));
  writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>Cairn</title>');
  writeFileSync(join(uiDir, 'assets', 'app.js'), 'console.log(1)');
  h = await startEngine({ config: { staticUiDir: uiDir } });
  port = Number(new URL(h.url).port);
});
afterAll(async () => {
  await h?.stop();
  rmSync(uiDir, { recursive: true, force: true });
});

interface RawResponse {
  status: number;
  text: string;
}

/** Sends one request with the target written exactly as given (no client normalisation). */
function rawRequest(method: string, target: string, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const head = [
      `${method} ${target} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      'Connection: close',
      ...(body === undefined
        ? []
        : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`]),
      '',
      '',
    ].join('\r\n');
    socket.on('connect', () => socket.end(head + (body ?? '')));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : 0, text });
    });
  });
}

/** A concrete path for a route pattern (`:id` → 1, `*` → a page path). */
function concrete(url: string): string {
  return url.replace(/:[A-Za-z_]+/g, '1').replace(/\*$/, 'some-page');
}

const encodeFirstLetter = (p: string) =>
  p.replace(/\/([a-z])/g, (_, c: string) => `/%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const encodeLowerHex = (p: string) =>
  p.replace(/\/([a-z])/g, (_, c: string) => `/%${c.charCodeAt(0).toString(16).toLowerCase()}`);
const encodeEveryLetter = (p: string) =>
  p.replace(/[a-z]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Ways to spell one path that a router, a proxy or a browser may treat as the same path. */
function spellings(path: string): string[] {
  const segments = path.split('/').filter(Boolean);
  const out = [
    path,
    encodeFirstLetter(path),
    encodeLowerHex(path),
    encodeEveryLetter(path),
    `http://127.0.0.1:${port}${path}`,
    `http://localhost:${port}${encodeFirstLetter(path)}`,
    `/${path}`,
    path.replace(/\//g, '//'),
    `/.${path}`,
    `/x/..${path}`,
    path.toUpperCase(),
    path.replace(/\/([a-z])/, (_, c: string) => `/${c.toUpperCase()}`),
    `${path}/`,
    `${path};x=1`,
    `${path}?x=1`,
    `${path}%00`,
    `${path}%20`,
    `${path}#frag`,
  ];
  if (segments.length > 1) {
    out.push(`/${segments[0]};p=1/${segments.slice(1).join('/')}`);
    out.push(`/${segments[0]}%2F${segments.slice(1).join('/')}`);
    out.push(`/${segments[0]}/./${segments.slice(1).join('/')}`);
  }
  return [...new Set(out)];
}

describe('default-deny authentication', () => {
  it('lists the public routes it expects and nothing else is public', () => {
    const routes = h.engine.app.registeredRoutes;
    expect(routes.length).toBeGreaterThan(20);
    const publicRoutes = routes.filter((r) => r.public).map((r) => `${r.method} ${r.url}`);
    // A new public route fails here until it is added to PUBLIC on purpose.
    expect(publicRoutes.filter((r) => !PUBLIC.has(r))).toEqual([]);
  });

  it('answers 401 or 404 without a token for every route under every spelling', async () => {
    const routes = h.engine.app.registeredRoutes.filter((r) => !r.public);
    const failures: string[] = [];
    let tried = 0;
    for (const route of routes) {
      const methods = new Set([route.method, 'HEAD', 'OPTIONS']);
      for (const target of spellings(concrete(route.url))) {
        for (const method of methods) {
          const body =
            method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? undefined : '{}';
          const res = await rawRequest(method, target, body);
          tried++;
          if (res.status !== 401 && res.status !== 404 && res.status !== 400) {
            failures.push(
              `${method} ${target} (route ${route.method} ${route.url}) → ${res.status}`,
            );
          }
          if (res.text.includes(h.dbKey) || res.text.includes(h.token)) {
            failures.push(`${method} ${target} leaked a secret`);
          }
        }
      }
    }
    expect(tried).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  }, 120_000);

  it('blocks the reported repro paths (percent-encoded letters, absolute-form target)', async () => {
    for (const target of [
      '/%6Demory/recovery-key',
      '/%6Demory/backup',
      '/%61gents',
      '/%761/models',
      `http://127.0.0.1:${port}/memory/recovery-key`,
      `http://127.0.0.1:${port}/memory/backup`,
    ]) {
      const res = await rawRequest('GET', target);
      expect([401, 404], target).toContain(res.status);
    }
    const put = await rawRequest('PUT', '/%73ettings', JSON.stringify({ memoryBudgetTokens: 100 }));
    expect(put.status).toBe(401);
    const settings = await h.api<{ memoryBudgetTokens: number }>('GET', '/settings');
    expect(settings.body.memoryBudgetTokens).not.toBe(100);
  });

  it('still serves the routes with the token, and the public ones without', async () => {
    const agents = await rawRequest('GET', '/agents');
    expect(agents.status).toBe(401);
    expect((await h.api('GET', '/agents')).status).toBe(200);
    expect((await h.api('GET', '/%61gents')).status).toBe(200);
    expect((await rawRequest('GET', '/health')).status).toBe(200);
    expect((await rawRequest('GET', '/')).status).toBe(200);
    expect((await rawRequest('GET', '/settings-page-of-the-app')).status).toBe(200);
    expect((await rawRequest('GET', '/assets/app.js')).status).toBe(200);
  });
});
