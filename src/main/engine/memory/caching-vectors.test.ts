import { describe, expect, it } from 'vitest';
import { fixedClock } from '../clock.ts';
import type { VectorKind, VectorService } from '../services.ts';
import { cachingVectors } from './memory-reader.ts';

/** An index of `size` rows whose nearest are ids 1, 2, 3, ... in order; counts its searches. */
function countingIndex(size: number): { service: VectorService; asks: number[] } {
  const asks: number[] = [];
  const service = {
    isReady: () => true,
    activeModel: () => 'm',
    indexRows: async () => {},
    remove: () => {},
    backfill: async () => 0,
    search: async (_agent: string, _kind: VectorKind, _q: string, k: number) => {
      asks.push(k);
      return Array.from({ length: Math.min(k, size) }, (_, i) => ({
        id: i + 1,
        score: 1 - i / 100,
      }));
    },
  } as unknown as VectorService;
  return { service, asks };
}

describe('cachingVectors', () => {
  it('answers a smaller or equal k for the same question from one search, a larger k with another', async () => {
    const { service, asks } = countingIndex(200);
    const v = cachingVectors(service, fixedClock(1_000));
    expect((await v.search('a', 'transcript', 'where do I live', 36)).map((h) => h.id)).toEqual(
      Array.from({ length: 36 }, (_, i) => i + 1),
    );
    expect(await v.search('a', 'transcript', 'where do I live', 48)).toHaveLength(48);
    expect(await v.search('a', 'transcript', 'where do I live', 5)).toHaveLength(5);
    expect(asks).toEqual([48]);
    expect(await v.search('a', 'transcript', 'where do I live', 100)).toHaveLength(100);
    expect(asks).toEqual([48, 100]);
    // Another question, kind or agent is another search.
    await v.search('a', 'pinned', 'where do I live', 5);
    await v.search('b', 'transcript', 'where do I live', 5);
    await v.search('a', 'transcript', 'who is my boss', 5);
    expect(asks).toHaveLength(5);
  });

  it('forgets everything once a row is removed', async () => {
    const { service, asks } = countingIndex(10);
    const v = cachingVectors(service, fixedClock(1_000));
    await v.search('a', 'pinned', 'tea', 3);
    v.remove('pinned', 2);
    await v.search('a', 'pinned', 'tea', 3);
    expect(asks).toHaveLength(2);
  });
});
