import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { UI_CONTENT_SECURITY_POLICY } from '../../../shared/csp.ts';
import { tempDir } from '../../../../test/helpers/temp-db.ts';
import { silentLogger } from '../logger.ts';
import { registerErrorHandler } from './error-handler.ts';
import { registerStaticUi } from './static-ui.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function appFor(rootDir: string): FastifyInstance {
  const app = Fastify();
  // The API's routes, as security.ts records them in the real app.
  app.decorate('registeredRoutes', [
    { method: 'GET', url: '/agents', public: false },
    { method: 'POST', url: '/memory/search', public: false },
  ]);
  registerErrorHandler(app, silentLogger);
  app.get('/agents', async () => ({ agents: [] }));
  registerStaticUi(app, { rootDir });
  cleanups.push(() => void app.close());
  return app;
}

function fakeBuild(): string {
  const { dir, cleanup } = tempDir('cairn-ui-');
  cleanups.push(cleanup);
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><title>Cairn</title><div id="root"></div>',
  );
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'assets', 'index-abc123.css'), 'body{}');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

describe('registerStaticUi', () => {
  it('serves index.html at / with the CSP header and no token', async () => {
    const app = appFor(fakeBuild());
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(UI_CONTENT_SECURITY_POLICY);
    expect(res.headers['content-security-policy']).not.toContain('unsafe-eval');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root">');
  });

  it('serves assets with their content type and long caching, and honours ETags', async () => {
    const app = appFor(fakeBuild());
    const js = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toContain('immutable');
    expect(js.body).toBe('console.log(1)');
    const css = await app.inject({ method: 'GET', url: '/assets/index-abc123.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const svg = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    const again = await app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'if-none-match': String(js.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('falls back to index.html for page paths, but not for API paths or missing assets', async () => {
    const app = appFor(fakeBuild());
    const page = await app.inject({ method: 'GET', url: '/some/page?x=1' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');

    const api = await app.inject({ method: 'GET', url: '/agents' });
    expect(api.json()).toEqual({ agents: [] });

    const unknownApi = await app.inject({ method: 'GET', url: '/memory/nope' });
    expect(unknownApi.statusCode).toBe(404);
    expect(unknownApi.json().error.code).toBe('not_found');

    const missing = await app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('application/json');
  });

  it('never serves files outside the build directory', async () => {
    const root = fakeBuild();
    writeFileSync(join(root, '..', 'secret.txt'), 'nope');
    const app = appFor(root);
    for (const url of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.body).not.toContain('nope');
    }
  });

  it('without a build, / says how to build the UI, and picks up a later build', async () => {
    const { dir, cleanup } = tempDir('cairn-ui-empty-');
    cleanups.push(cleanup);
    const app = appFor(dir);
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('npm run build:web');
    writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
    const after = await app.inject({ method: 'GET', url: '/' });
    expect(after.body).toContain('<div id="root">');
  });
});
