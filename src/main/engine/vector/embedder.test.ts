import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ensureTinyModel,
  TINY_MODEL_DIMS,
  TINY_MODEL_ID,
} from '../../../../test/fixtures/tiny-model.ts';
import { tinyEmbedderOptions } from '../../../../test/helpers/tiny-embedder.ts';
import { isCairnError } from '../errors.ts';
import { createLogger } from '../logger.ts';
import { createEmbedder, type EmbedderOptions, type EmbedderState } from './embedder.ts';

let modelRoot: string;
let tmp: string;

beforeAll(async () => {
  modelRoot = await ensureTinyModel();
  tmp = mkdtempSync(join(tmpdir(), 'cairn-embedder-'));
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

const options = (over: Partial<EmbedderOptions> = {}): EmbedderOptions =>
  tinyEmbedderOptions(modelRoot, join(tmp, 'models'), over);

const dot = (a: Float32Array, b: Float32Array) =>
  a.reduce((s, x, i) => s + x * (b[i] as number), 0);
const norm = (a: Float32Array) => Math.sqrt(dot(a, a));

describe('embedder (tiny fixture model, offline)', () => {
  it('goes idle → loading → ready and reports dims', async () => {
    const e = createEmbedder(options());
    expect(e.state()).toEqual({
      status: 'idle',
      model: TINY_MODEL_ID,
      progress: null,
      dims: null,
      error: null,
    });
    expect(e.isReady()).toBe(false);
    const started = e.start();
    expect(e.state().status).toBe('loading');
    expect(e.start()).toBe(started); // idempotent while loading
    await started;
    expect(e.state()).toEqual({
      status: 'ready',
      model: TINY_MODEL_ID,
      progress: null,
      dims: TINY_MODEL_DIMS,
      error: null,
    });
    expect(e.isReady()).toBe(true);
    await e.close();
    expect(e.state().status).toBe('idle');
    await expect(e.embed(['x'])).rejects.toSatisfy(isCairnError);
  });

  it('returns L2-normalised, deterministic vectors, the same alone or batched', async () => {
    const texts = [
      'I drink my coffee black every morning',
      'The kubernetes cluster crashed during the deploy',
      'short',
      '',
      'We decided to use SQLite with encryption for the memory store, and to keep vectors inside it.',
    ];
    const a = createEmbedder(options({ batchSize: 2 }));
    const b = createEmbedder(options());
    await Promise.all([a.start(), b.start()]);
    const batched = await a.embed(texts);
    expect(batched).toHaveLength(texts.length);
    for (const v of batched) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(TINY_MODEL_DIMS);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    // Another instance, one text at a time: same numbers (padding does not leak in).
    for (let i = 0; i < texts.length; i++) {
      const [single] = await b.embed([texts[i] as string]);
      const v = batched[i] as Float32Array;
      (single as Float32Array).forEach((x, j) => expect(x).toBeCloseTo(v[j] as number, 5));
    }
    // Texts sharing words are closer than unrelated ones.
    const [coffee, coffee2, cluster] = await a.embed([
      'I drink strong coffee every morning',
      'every morning I drink coffee',
      'the kubernetes cluster crashed again',
    ]);
    expect(dot(coffee as Float32Array, coffee2 as Float32Array)).toBeGreaterThan(
      dot(coffee as Float32Array, cluster as Float32Array),
    );
    await Promise.all([a.close(), b.close()]);
  });

  it('caches query embeddings (LRU) unless the cache is disabled', async () => {
    const cached = createEmbedder(options({ queryCacheSize: 2 }));
    const uncached = createEmbedder(options({ queryCacheSize: 0 }));
    await Promise.all([cached.start(), uncached.start()]);
    const q1 = await cached.embedQuery('what is my favourite drink');
    expect(await cached.embedQuery('what is my favourite drink')).toBe(q1);
    const [direct] = await cached.embed(['what is my favourite drink']);
    (direct as Float32Array).forEach((x, j) => expect(x).toBeCloseTo(q1[j] as number, 6));
    // Two more distinct queries evict the first (capacity 2).
    await cached.embedQuery('second');
    await cached.embedQuery('third');
    const again = await cached.embedQuery('what is my favourite drink');
    expect(again).not.toBe(q1);
    expect(Array.from(again)).toEqual(Array.from(q1));
    // Concurrent identical queries share one inference.
    const [p, r] = await Promise.all([cached.embedQuery('same'), cached.embedQuery('same')]);
    expect(p).toBe(r);

    const u1 = await uncached.embedQuery('hello');
    expect(await uncached.embedQuery('hello')).not.toBe(u1);
    await Promise.all([cached.close(), uncached.close()]);
  });

  it('stops between batches when aborted', async () => {
    const e = createEmbedder(options({ batchSize: 1 }));
    await e.start();
    const ctrl = new AbortController();
    ctrl.abort();
    await expect(e.embed(['a', 'b'], ctrl.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(await e.embed([])).toEqual([]);
    await e.close();
  });

  it('backend none is disabled: start resolves, embed refuses', async () => {
    const e = createEmbedder(options({ backend: 'none' }));
    expect(e.state().status).toBe('disabled');
    await e.start();
    expect(e.state().status).toBe('disabled');
    expect(e.isReady()).toBe(false);
    const err = await e.embed(['x']).catch((x: unknown) => x);
    expect(isCairnError(err)).toBe(true);
    expect((err as Error).message).toMatch(/not ready \(status: disabled\)/);
    await e.close();
    expect(e.state().status).toBe('disabled');
  });

  it('a missing model ends in the error state with a clear message, without throwing', async () => {
    const lines: string[] = [];
    const e = createEmbedder(
      options({
        modelId: 'cairn-test/does-not-exist',
        logger: createLogger({ level: 'warn', sink: (l) => lines.push(l) }),
      }),
    );
    await expect(e.start()).resolves.toBeUndefined();
    const s = e.state();
    expect(s.status).toBe('error');
    expect(s.error).toMatch(
      /cairn-test\/does-not-exist is not on this machine .* downloads are disabled/,
    );
    expect(s.dims).toBeNull();
    // A warning, not an error: memory keeps working without the model.
    expect(
      lines.filter((l) => l.includes('failed to load')).map((l) => JSON.parse(l).level),
    ).toEqual(['warn']);
    await expect(e.embedQuery('x')).rejects.toSatisfy(isCairnError);
    // start() again tries again (e.g. after the model was put in place).
    await e.start();
    expect(e.state().status).toBe('error');
    expect(lines.filter((l) => l.includes('failed to load'))).toHaveLength(2);
    await e.close();
  });

  it('a corrupt model file ends in the error state', async () => {
    const { cpSync, writeFileSync } = await import('node:fs');
    const root = join(tmp, 'corrupt');
    cpSync(join(modelRoot, TINY_MODEL_ID), join(root, TINY_MODEL_ID), { recursive: true });
    writeFileSync(join(root, TINY_MODEL_ID, 'onnx', 'model.onnx'), 'not a model');
    const e = createEmbedder(
      options({ localModelPath: root, cacheDir: join(tmp, 'corrupt-cache') }),
    );
    await e.start();
    expect(e.state().status).toBe('error');
    expect(e.state().error).toMatch(/Could not load the embedding model/);
    await e.close();
  });
});

describe('embedder download path (local model hub)', () => {
  let server: Server;
  let host: string;
  let seen: EmbedderState[] = [];
  let current: (() => EmbedderState) | null = null;

  beforeAll(async () => {
    const dir = join(modelRoot, TINY_MODEL_ID);
    server = createServer((req, res) => {
      // Hub layout: /<model>/resolve/<revision>/<file>
      const prefix = `/${TINY_MODEL_ID}/resolve/main/`;
      const url = decodeURIComponent(req.url ?? '');
      const file = url.startsWith(prefix) ? url.slice(prefix.length) : null;
      if (!file || file.includes('..') || !existsSync(join(dir, file))) {
        res.writeHead(404).end('not found');
        return;
      }
      const body = readFileSync(join(dir, file));
      res.writeHead(200, {
        'content-length': body.length,
        'content-type': 'application/octet-stream',
      });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      // Send the weights in two halves so the download is observably in progress.
      const half = Math.floor(body.length / 2);
      res.write(body.subarray(0, half));
      setTimeout(() => {
        if (current) seen.push(current());
        res.end(body.subarray(half));
      }, 30);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    host = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('downloads into cacheDir with progress, then loads from the cache offline', async () => {
    const cacheDir = join(tmp, 'download-cache');
    const e = createEmbedder(
      options({
        cacheDir,
        localModelPath: join(tmp, 'empty'),
        allowRemoteModels: true,
        remoteHost: host,
      }),
    );
    current = () => e.state();
    seen = [];
    const started = e.start();
    expect(e.state()).toMatchObject({ status: 'downloading', progress: 0 });
    await started;
    current = null;
    expect(e.state()).toMatchObject({ status: 'ready', dims: TINY_MODEL_DIMS, error: null });
    expect(seen.some((s) => s.status === 'downloading')).toBe(true);
    for (const s of seen.filter((x) => x.status === 'downloading')) {
      expect(s.progress).not.toBeNull();
      expect(s.progress as number).toBeGreaterThanOrEqual(0);
      expect(s.progress as number).toBeLessThanOrEqual(1);
    }
    expect(existsSync(join(cacheDir, TINY_MODEL_ID, 'onnx', 'model.onnx'))).toBe(true);
    const [online] = await e.embed(['cached model check']);
    await e.close();

    // Same cache, downloads now disabled: loads from disk.
    const offline = createEmbedder(
      options({ cacheDir, localModelPath: join(tmp, 'empty'), allowRemoteModels: false }),
    );
    const p = offline.start();
    expect(offline.state().status).toBe('loading');
    await p;
    expect(offline.isReady()).toBe(true);
    const [local] = await offline.embed(['cached model check']);
    expect(Array.from(local as Float32Array)).toEqual(Array.from(online as Float32Array));
    await offline.close();
  });

  it('a hub that cannot be reached ends in the error state (and is tried again)', async () => {
    // A port nobody listens on: the check before transformers.js loads fails at once.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const e = createEmbedder(
      options({
        cacheDir: join(tmp, 'download-cache-3'),
        localModelPath: join(tmp, 'empty'),
        allowRemoteModels: true,
        remoteHost: `http://127.0.0.1:${port}/`,
      }),
    );
    await e.start();
    expect(e.state()).toMatchObject({ status: 'error', dims: null, progress: null });
    expect(e.state().error).toMatch(
      new RegExp(`Could not load the embedding model ${TINY_MODEL_ID}: fetch failed`),
    );
    expect(existsSync(join(tmp, 'download-cache-3', TINY_MODEL_ID))).toBe(false);
    await e.start(); // a later start tries again
    expect(e.state().status).toBe('error');
    await e.close();
  });

  it('a model the hub does not have ends in the error state', async () => {
    const e = createEmbedder(
      options({
        modelId: 'cairn-test/unknown-model',
        cacheDir: join(tmp, 'download-cache-2'),
        localModelPath: join(tmp, 'empty'),
        allowRemoteModels: true,
        remoteHost: host,
      }),
    );
    await e.start();
    expect(e.state().status).toBe('error');
    expect(e.state().error).toMatch(/Could not load the embedding model cairn-test\/unknown-model/);
    await e.close();
  });
});
