import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isLoopbackUrl, upstreamHost } from './core-model.ts';

describe('isLoopbackHost', () => {
  it('knows this machine by name and address', () => {
    for (const host of [
      'localhost',
      'LocalHost',
      'localhost.',
      'ollama.localhost',
      '127.0.0.1',
      '127.255.255.254',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
      '[::ffff:7f00:1]',
    ]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
  });

  it('anything else is another machine', () => {
    for (const host of [
      '',
      'example.com',
      'localhost.example.com',
      'mylocalhost',
      '127.0.0.1.example.com',
      '126.0.0.1',
      '128.0.0.1',
      '127.0.0',
      '127.0.0.256',
      '0.0.0.0',
      '10.0.0.1',
      '192.168.0.10',
      '::',
      '::2',
      '::ffff:10.0.0.1',
      '[::ffff:a00:1]',
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

describe('isLoopbackUrl', () => {
  it('reads the host of a base URL, credentials and ports included', () => {
    expect(isLoopbackUrl('http://127.0.0.1:11434/v1')).toBe(true);
    expect(isLoopbackUrl('http://[::1]:1234/v1')).toBe(true);
    expect(isLoopbackUrl('http://user:pw@localhost:8080/v1')).toBe(true);
    expect(isLoopbackUrl('http://[::ffff:127.0.0.1]:1/v1')).toBe(true);
    expect(isLoopbackUrl('http://localhost@api.example.com/v1')).toBe(false);
    expect(isLoopbackUrl('https://api.example.com/v1?host=127.0.0.1')).toBe(false);
  });

  it('nothing, or nothing parsable, is not loopback', () => {
    expect(isLoopbackUrl(null)).toBe(false);
    expect(isLoopbackUrl(undefined)).toBe(false);
    expect(isLoopbackUrl('not a url')).toBe(false);
  });
});

describe('upstreamHost', () => {
  it('shows host and port only, never credentials or path', () => {
    expect(upstreamHost('https://user:secret@api.example.com:8443/v1?key=k')).toBe(
      'api.example.com:8443',
    );
    expect(upstreamHost('nope')).toBeNull();
  });
});
