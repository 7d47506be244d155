import { describe, expect, it } from 'vitest';
import { createLogger, type LogLevel } from './logger.ts';

function capture(level: LogLevel = 'info') {
  const lines: string[] = [];
  const logger = createLogger({ level, sink: (l) => lines.push(l) });
  const last = () => JSON.parse(lines.at(-1)!) as Record<string, unknown>;
  return { logger, lines, last };
}

describe('logger redaction', () => {
  it('never writes a field named like a secret that holds a string, at any level', () => {
    for (const level of ['debug', 'info'] as const) {
      const { logger, lines, last } = capture(level);
      logger.info('x', {
        token: 'cairn-abc',
        apiKey: 'sk-live-1',
        api_key: 'sk-live-2',
        password: 'hunter2',
        authorization: 'Bearer z',
        dbKey: 'aa'.repeat(32),
      });
      expect(last()).toMatchObject({
        token: '[redacted]',
        apiKey: '[redacted]',
        api_key: '[redacted]',
        password: '[redacted]',
        authorization: '[redacted]',
        dbKey: '[redacted]',
      });
      for (const secret of ['cairn-abc', 'sk-live-1', 'sk-live-2', 'hunter2', 'Bearer z', 'aaaa']) {
        expect(lines.join('\n')).not.toContain(secret);
      }
    }
  });

  it('keeps counts and flags whose names contain "token" or "key"', () => {
    const { logger, last } = capture();
    logger.info('distilled', { tokens: 812, blockTokens: 0, keySource: 'env', keyStored: true });
    expect(last()).toMatchObject({
      tokens: 812,
      blockTokens: 0,
      keySource: 'env',
      keyStored: true,
    });
  });

  it('redacts secrets and user text inside nested fields too', () => {
    const { logger, lines, last } = capture();
    logger.warn('nested', {
      provider: { id: 'p', apiKey: 'sk-nested', stats: { tokens: 3 } },
      turns: [{ content: 'my diagnosis is private' }],
    });
    expect(last()).toMatchObject({
      provider: { id: 'p', apiKey: '[redacted]', stats: { tokens: 3 } },
      turns: [{ content: '[redacted]' }],
    });
    expect(lines.join('\n')).not.toContain('sk-nested');
    expect(lines.join('\n')).not.toContain('diagnosis');
  });

  it('never writes raw bytes (a key is a Buffer), whatever the field is called', () => {
    const { logger, last } = capture('debug');
    logger.debug('bytes', { material: Buffer.from('00112233', 'hex') });
    expect(last().material).toBe('[bytes]');
  });

  it('strips credentials and query from URLs in fields, error messages, stacks and the message', () => {
    const { logger, lines } = capture();
    const url = 'http://alice:s3cr3t@10.1.2.3:8080/v1?api_key=sk-query';
    const err = new Error(`Cannot reach ${url} (ECONNREFUSED)`);
    logger.error(`failed at ${url}`, { err, upstream: url, list: [url] });
    const out = lines.join('\n');
    for (const secret of ['alice', 's3cr3t', 'sk-query']) expect(out).not.toContain(secret);
    const rec = JSON.parse(lines[0]!) as {
      msg: string;
      upstream: string;
      err: { message: string; stack: string };
      list: string[];
    };
    expect(rec.msg).toBe('failed at http://10.1.2.3:8080/v1');
    expect(rec.upstream).toBe('http://10.1.2.3:8080/v1');
    expect(rec.err.message).toBe('Cannot reach http://10.1.2.3:8080/v1 (ECONNREFUSED)');
    expect(rec.err.stack).toContain('Cannot reach http://10.1.2.3:8080/v1');
    expect(rec.list).toEqual(['http://10.1.2.3:8080/v1']);
  });

  it('writes user text at debug level only', () => {
    const info = capture('info');
    info.logger.info('q', { query: 'where do I live' });
    expect(info.last().query).toBe('[redacted]');
    const debug = capture('debug');
    debug.logger.debug('q', { query: 'where do I live' });
    expect(debug.last().query).toBe('where do I live');
  });

  it('stops at a bounded depth (a cycle cannot hang it)', () => {
    const { logger, last } = capture();
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.self = cyclic;
    logger.info('cycle', { cyclic });
    expect(JSON.stringify(last())).toContain('[nested]');
  });
});
