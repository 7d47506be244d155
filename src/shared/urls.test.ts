import { describe, expect, it } from 'vitest';
import { displayUrl, httpUrlProblem, redactUrlsInText } from './urls.ts';

describe('displayUrl', () => {
  it.each([
    ['https://user:pa55@api.example.com/v1?api_key=abc#frag', 'https://api.example.com/v1'],
    ['http://127.0.0.1:11434/v1/', 'http://127.0.0.1:11434/v1'],
    ['http://[::1]:8080/v1?key=1', 'http://[::1]:8080/v1'],
    ['https://:only-password@h.example/', 'https://h.example'],
  ])('%s → %s', (url, shown) => {
    expect(displayUrl(url)).toBe(shown);
  });

  it('answers null for null and for what is not a URL', () => {
    expect(displayUrl(null)).toBeNull();
    expect(displayUrl('not a url')).toBeNull();
  });
});

describe('redactUrlsInText', () => {
  it('strips credentials and query from every URL in a sentence', () => {
    const text =
      'Cannot reach http://bob:hunter2@10.0.0.5:8080/v1?api_key=sk-123 (ECONNREFUSED); ' +
      'also tried https://x.example/v1?token=t0k.';
    const out = redactUrlsInText(text);
    expect(out).toBe(
      'Cannot reach http://10.0.0.5:8080/v1 (ECONNREFUSED); also tried https://x.example/v1',
    );
    for (const secret of ['bob', 'hunter2', 'sk-123', 't0k']) expect(out).not.toContain(secret);
  });

  it('leaves text without URLs as it is', () => {
    expect(redactUrlsInText('no url: here, 12:30')).toBe('no url: here, 12:30');
  });
});

describe('httpUrlProblem', () => {
  it.each([
    'http://127.0.0.1:11434/v1',
    'https://api.openai.com/v1',
    'http://localhost:1234',
    'http://[::1]:8080/v1',
    'HTTPS://API.EXAMPLE.COM/v1',
    'https://user:pw@h.example/v1?api-version=2024-06-01',
  ])('accepts %s', (url) => {
    expect(httpUrlProblem(url)).toBeNull();
  });

  it.each([
    ['file:///etc/passwd', 'not file:'],
    ['javascript:alert(1)', 'not javascript:'],
    ['data:text/plain,hi', 'not data:'],
    ['ftp://files.example/', 'not ftp:'],
    ['http://', 'with a host'],
    ['http:///etc/passwd', 'with a host'],
    ['http:example.com', 'with a host'],
    ['not a url', 'with a host'],
    ['', 'with a host'],
  ])('refuses %j', (url, reason) => {
    expect(httpUrlProblem(url)).toContain(reason);
  });

  it('does not repeat the refused URL (it may hold a secret)', () => {
    expect(httpUrlProblem('ftp://me:s3cret@files.example/')).not.toContain('s3cret');
  });
});
