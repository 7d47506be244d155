import Fastify, { LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger, MAX_FIELD_DEPTH, SECRET_FIELDS, type LogLevel } from './logger.ts';

function capture(level: LogLevel = 'info') {
  const lines: string[] = [];
  const logger = createLogger({ level, sink: (l) => lines.push(l) });
  const last = () => JSON.parse(lines.at(-1)!) as Record<string, unknown>;
  const all = () => lines.join('\n');
  return { logger, lines, last, all };
}

/** `{ a: { a: … { [name]: value } } }` with `depth` objects around the field. */
function nestedAt(depth: number, name: string, value: unknown): Record<string, unknown> {
  let obj: Record<string, unknown> = { [name]: value };
  for (let i = 0; i < depth; i++) obj = { a: obj };
  return obj;
}

describe('logger levels and line format', () => {
  it('writes one JSON line per call with t, level as a label, sub and msg', () => {
    const { logger, lines, last } = capture('info');
    logger.warn('disk is full', { attempt: 2 });
    expect(lines).toHaveLength(1);
    const rec = last();
    expect(rec).toMatchObject({ level: 'warn', sub: 'cairn', msg: 'disk is full', attempt: 2 });
    expect(new Date(rec.t as string).toISOString()).toBe(rec.t);
    expect(lines[0]).not.toContain('\n');
  });

  it('drops lines below its level and writes nothing when silent', () => {
    const info = capture('info');
    info.logger.debug('hidden');
    info.logger.info('shown');
    info.logger.error('shown too');
    expect(info.lines.map((l) => JSON.parse(l) as { level: string }).map((r) => r.level)).toEqual([
      'info',
      'error',
    ]);
    expect(info.logger.level).toBe('info');

    const error = capture('error');
    error.logger.warn('hidden');
    expect(error.lines).toHaveLength(0);

    const silent = capture('silent');
    for (const lvl of ['debug', 'info', 'warn', 'error'] as const) silent.logger[lvl]('x');
    expect(silent.lines).toHaveLength(0);

    const debug = capture('debug');
    debug.logger.debug('seen', { ms: 3 });
    expect(debug.last()).toMatchObject({ level: 'debug', msg: 'seen', ms: 3 });
  });

  it('names the subsystem of a child, and of its child, once per line', () => {
    const { logger, lines, last } = capture();
    const http = logger.child('http');
    http.child('relay').info('broke');
    expect(last().sub).toBe('cairn.http.relay');
    expect(lines[0]!.match(/"sub"/g)).toHaveLength(1);
    http.info('ok');
    expect(last().sub).toBe('cairn.http');
    expect(http.level).toBe('info');
  });

  it('writes the message as given, printf markers included', () => {
    const { logger, last } = capture();
    logger.info('100% done, %s stays');
    expect(last().msg).toBe('100% done, %s stays');
  });
});

describe('logger redaction by path', () => {
  it('censors every secret field Cairn holds, at top level, at any level', () => {
    for (const level of ['debug', 'info'] as const) {
      const { logger, all, last } = capture(level);
      const fields = Object.fromEntries(SECRET_FIELDS.map((n) => [n, `secret-${n}`]));
      logger.info('x', fields);
      for (const name of SECRET_FIELDS) expect(last()[name]).toBe('[redacted]');
      expect(all()).not.toContain('secret-');
    }
  });

  it('censors secrets nested in objects and arrays, down to the deepest level written', () => {
    const { logger, all, last } = capture();
    logger.warn('nested', {
      provider: { id: 'p', apiKey: 'sk-nested', stats: { tokens: 3 } },
      providers: [{ id: 'a', apiKey: 'sk-in-array' }],
      request: { headers: { authorization: 'Bearer z', 'x-api-key': 'sk-header', accept: '*/*' } },
    });
    expect(last()).toMatchObject({
      provider: { id: 'p', apiKey: '[redacted]', stats: { tokens: 3 } },
      providers: [{ id: 'a', apiKey: '[redacted]' }],
      request: {
        headers: { authorization: '[redacted]', 'x-api-key': '[redacted]', accept: '*/*' },
      },
    });
    // Every name on the list, at every depth a line writes (the deepest one included).
    for (let depth = 1; depth <= MAX_FIELD_DEPTH; depth++) {
      for (const name of SECRET_FIELDS) {
        logger.info('deep', { deep: nestedAt(depth - 1, name, `sk-depth-${depth}`) });
        let rec: unknown = last().deep;
        for (let i = 1; i < depth; i++) rec = (rec as { a: unknown }).a;
        expect(rec).toEqual({ [name]: '[redacted]' });
      }
    }
    for (const secret of ['sk-nested', 'sk-in-array', 'Bearer z', 'sk-header', 'sk-depth']) {
      expect(all()).not.toContain(secret);
    }
  });

  it('keeps counts and flags whose names only look like secrets', () => {
    const { logger, last } = capture();
    logger.info('distilled', {
      tokens: 812,
      blockTokens: 0,
      keySource: 'env',
      keyStored: true,
      tokenizer: 'bpe',
      usage: { prompt_tokens: 40, completion_tokens: 12 },
    });
    expect(last()).toMatchObject({
      tokens: 812,
      blockTokens: 0,
      keySource: 'env',
      keyStored: true,
      tokenizer: 'bpe',
      usage: { prompt_tokens: 40, completion_tokens: 12 },
    });
  });

  it('never writes raw bytes (a key is a Buffer), whatever the field is called', () => {
    const { logger, last, all } = capture('debug');
    logger.debug('bytes', { material: Buffer.from('00112233', 'hex'), view: new Uint8Array(4) });
    expect(last()).toMatchObject({ material: '[bytes]', view: '[bytes]' });
    expect(all()).not.toContain('0011');
  });

  it('stops at a bounded depth (a cycle cannot hang it)', () => {
    const { logger, last } = capture();
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.self = cyclic;
    logger.info('cycle', { cyclic });
    expect(JSON.stringify(last())).toContain('[nested]');
    expect(last()).toMatchObject({ cyclic: { name: 'a', self: { name: 'a' } } });
  });
});

describe('logger user text', () => {
  const text = {
    query: 'where do I live',
    turns: [{ role: 'user', content: 'my diagnosis is private' }],
    memory: { summary: 'moved to the coast', facts: ['owns a boat'] },
  };

  it('leaves user text out of the line above debug level, at any depth', () => {
    for (const level of ['info', 'warn'] as const) {
      const { logger, last, all } = capture(level);
      logger.warn('turn', { ...text, rows: 2 });
      expect(last()).toEqual(
        expect.objectContaining({ rows: 2, turns: [{ role: 'user' }], memory: {} }),
      );
      expect(last()).not.toHaveProperty('query');
      for (const words of ['where do I live', 'diagnosis', 'coast', 'boat']) {
        expect(all()).not.toContain(words);
      }
    }
  });

  it('writes user text when the logger runs at debug level', () => {
    const { logger, last } = capture('debug');
    logger.debug('turn', text);
    expect(last()).toMatchObject(text);
  });

  it("keeps an error's message at info (it is not user text)", () => {
    const { logger, last } = capture('info');
    logger.error('failed', { err: new Error('the disk is full') });
    expect(last()).toMatchObject({ err: { name: 'Error', message: 'the disk is full' } });
  });
});

describe('logger URLs and errors', () => {
  it('strips credentials and query from URLs in the message, fields, errors and stacks', () => {
    const { logger, lines, all } = capture();
    const url = 'http://alice:s3cr3t@10.1.2.3:8080/v1?api_key=sk-query';
    const err = new Error(`Cannot reach ${url} (ECONNREFUSED)`);
    logger.error(`failed at ${url}`, { err, upstream: url, list: [url], at: { url } });
    for (const secret of ['alice', 's3cr3t', 'sk-query']) expect(all()).not.toContain(secret);
    const rec = JSON.parse(lines[0]!) as {
      msg: string;
      upstream: string;
      err: { message: string; stack: string };
      list: string[];
      at: { url: string };
    };
    expect(rec.msg).toBe('failed at http://10.1.2.3:8080/v1');
    expect(rec.upstream).toBe('http://10.1.2.3:8080/v1');
    expect(rec.err.message).toBe('Cannot reach http://10.1.2.3:8080/v1 (ECONNREFUSED)');
    expect(rec.err.stack).toContain('Cannot reach http://10.1.2.3:8080/v1');
    expect(rec.list).toEqual(['http://10.1.2.3:8080/v1']);
    expect(rec.at.url).toBe('http://10.1.2.3:8080/v1');
  });

  it('strips the query of a request path in text, and keeps a plain question mark', () => {
    const { logger, last } = capture();
    logger.warn('GET /v1/models?api_key=sk-path failed; why?', { path: '/memory?q=my+secret' });
    expect(last()).toMatchObject({ msg: 'GET /v1/models failed; why?', path: '/memory' });
  });

  it("writes an error's name, message, stack and code, never its other properties", () => {
    const { logger, last, all } = capture();
    const err = Object.assign(new Error('upstream said no'), {
      code: 'ECONNRESET',
      headers: { 'x-trace': 'trace-123' },
      config: { baseUrl: 'http://h/v1' },
    });
    logger.error('failed', { err, error: err });
    const rec = last() as { err: Record<string, unknown>; error: Record<string, unknown> };
    for (const summary of [rec.err, rec.error]) {
      expect(Object.keys(summary).sort()).toEqual(['code', 'message', 'name', 'stack']);
      expect(summary.code).toBe('ECONNRESET');
    }
    expect(all()).not.toContain('trace-123');
  });

  it('cleans what pino is given directly: an error alone, text with a URL', () => {
    const { logger, last, all } = capture();
    logger.pino.error(new Error('no route to http://u:pw@host/v1?key=sk-direct'));
    expect(last()).toMatchObject({
      msg: 'no route to http://host/v1',
      err: { message: 'no route to http://host/v1' },
      sub: 'cairn',
    });
    logger.pino.warn('see http://u:pw@host/x');
    expect(last().msg).toBe('see http://host/x');
    expect(all()).not.toContain('pw');
    expect(all()).not.toContain('sk-direct');
  });
});

describe('fastify logging through the same pino instance', () => {
  async function appWith(level: LogLevel) {
    const { logger, lines, all } = capture(level);
    const app = Fastify({
      loggerInstance: logger.child('http').pino,
      logController: new LogController({ disableRequestLogging: true }),
    });
    app.get('/seen', async (request) => {
      request.log.info({ req: request }, 'seen');
      return { ok: true };
    });
    // A handler that sends and then returns: fastify itself warns, quoting the raw URL.
    app.get('/twice', async (_request, reply) => {
      await reply.send({ ok: true });
      return { again: true };
    });
    await app.ready();
    return { app, lines, all };
  }

  it("writes fastify's lines with the subsystem and request id, the URL without its query", async () => {
    const { app, lines, all } = await appWith('info');
    const res = await app.inject({
      method: 'GET',
      url: '/seen?api_key=sk-query-1',
      headers: { authorization: 'Bearer sk-header-1', cookie: 'c=sk-cookie-1' },
    });
    expect(res.statusCode).toBe(200);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'info',
      sub: 'cairn.http',
      reqId: expect.any(String),
      req: { method: 'GET', url: '/seen' },
      msg: 'seen',
    });
    for (const secret of ['sk-query-1', 'sk-header-1', 'sk-cookie-1']) {
      expect(all()).not.toContain(secret);
    }
    await app.close();
  });

  it('strips the query of the URL fastify quotes in its own warnings', async () => {
    const { app, lines, all } = await appWith('info');
    await app.inject({ method: 'GET', url: '/twice?api_key=sk-query-2' });
    const warning = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(warning).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        sub: 'cairn.http',
        msg: expect.stringContaining('/twice'),
      }),
    );
    expect(all()).not.toContain('sk-query-2');
    await app.close();
  });

  it('writes no line per request of its own', async () => {
    const { app, lines } = await appWith('debug');
    await app.inject({ method: 'GET', url: '/nothing-here' });
    expect(
      lines.filter((l) => l.includes('incoming request') || l.includes('request completed')),
    ).toEqual([]);
    await app.close();
  });
});
