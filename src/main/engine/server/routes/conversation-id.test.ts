import { describe, expect, it } from 'vitest';
import { deriveConversationId } from './proxy.ts';

describe('deriveConversationId', () => {
  it('is stable across resends of the same history', () => {
    const first = [{ role: 'user', content: 'Plan my trip to Lisbon' }];
    const later = [
      { role: 'system', content: 'You are helpful.' },
      ...first,
      { role: 'assistant', content: 'Sure.' },
      { role: 'user', content: 'And hotels?' },
    ];
    expect(deriveConversationId('a', later)).toBe(deriveConversationId('a', first));
    expect(deriveConversationId('a', first)).toMatch(/^a:[0-9a-f]{16}$/);
  });

  it('differs by agent and by first message', () => {
    const m = [{ role: 'user', content: 'hello' }];
    expect(deriveConversationId('a', m)).not.toBe(deriveConversationId('b', m));
    expect(deriveConversationId('a', m)).not.toBe(
      deriveConversationId('a', [{ role: 'user', content: 'hi' }]),
    );
  });

  it('keeps image-only and user-less conversations apart', () => {
    const image = (url: string) => [
      { role: 'user', content: [{ type: 'image_url', image_url: { url } }] },
    ];
    const a = deriveConversationId('a', image('https://x/1.png'));
    const b = deriveConversationId('a', image('https://x/2.png'));
    const c = deriveConversationId('a', [{ role: 'system', content: 'Summarise the news' }]);
    const d = deriveConversationId('a', [{ role: 'system', content: 'Translate to French' }]);
    expect(new Set([a, b, c, d]).size).toBe(4);
  });

  it('hashes the first message with its private spans replaced, so no secret can be guessed back', () => {
    const id = (content: unknown) =>
      deriveConversationId('a', [{ role: 'user', content } as { role: string; content: string }]);
    const secret = id('My PIN is <private>4417</private>, keep it');
    expect(secret).toBe(id('My PIN is [private], keep it'));
    expect(secret).toBe(id('My PIN is <private>9999</private>, keep it'));
    expect(secret).not.toBe(id('My PIN is 4417, keep it'));
    // Text parts and the whole-content fallback are scrubbed the same way.
    expect(id([{ type: 'text', text: 'My PIN is <private>4417</private>, keep it' }])).toBe(secret);
    const imageOnly = (caption: string) =>
      id([{ type: 'image_url', image_url: { url: 'https://x/1.png' }, caption }]);
    expect(imageOnly('<private>4417</private>')).toBe(imageOnly('<private>0000</private>'));
  });
});
