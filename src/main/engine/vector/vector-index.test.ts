import { describe, expect, it } from 'vitest';
import {
  createVectorIndex,
  simdAvailable,
  type VectorHit,
  type VectorKind,
} from './vector-index.ts';
import { decodeVector, encodeVector } from '../store/vector-codec.ts';
import { seededRandom } from '../../../../test/helpers/seeded-random.ts';

function randomVec(rand: () => number, dims: number): Float32Array {
  const v = new Float32Array(dims);
  for (let i = 0; i < dims; i++) v[i] = rand() * 2 - 1;
  return v;
}

/** Independent reference: cosine of everything, full sort (score desc, id asc). */
function bruteForce(
  rows: Map<number, Float32Array>,
  query: Float32Array,
  k: number,
  accept?: (id: number) => boolean,
): VectorHit[] {
  const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  const qn = norm(query);
  const all: VectorHit[] = [];
  for (const [id, v] of rows) {
    if (accept && !accept(id)) continue;
    let dot = 0;
    for (let i = 0; i < v.length; i++) dot += (v[i] as number) * (query[i] as number);
    all.push({ id, score: dot / (norm(v) * qn) });
  }
  all.sort((a, b) => b.score - a.score || a.id - b.id);
  return all.slice(0, k);
}

function expectSameHits(actual: VectorHit[], expected: VectorHit[]): void {
  expect(actual.map((h) => h.id)).toEqual(expected.map((h) => h.id));
  actual.forEach((h, i) => expect(h.score).toBeCloseTo((expected[i] as VectorHit).score, 5));
}

const paths = [
  { name: 'exact scan', options: { simd: false } },
  ...(simdAvailable() ? [{ name: 'int8 SIMD first pass', options: { quantizeFrom: 1 } }] : []),
];

describe.each(paths)('vector index ($name)', ({ options }) => {
  it('returns the same top-k as a brute-force scan', () => {
    const rand = seededRandom(42);
    const index = createVectorIndex(options);
    const rows = new Map<number, Float32Array>();
    for (let id = 1; id <= 3000; id++) {
      const v = randomVec(rand, 48);
      rows.set(id, v);
      index.upsert('agent-a', 'episode', id, v);
    }
    expect(index.count('agent-a', 'episode')).toBe(3000);
    for (let q = 0; q < 25; q++) {
      const query = randomVec(rand, 48);
      for (const k of [1, 10, 50]) {
        const hits = index.search('agent-a', 'episode', query, k);
        expect(hits).toHaveLength(k);
        expectSameHits(hits, bruteForce(rows, query, k));
      }
    }
  });

  it('breaks ties by the smaller id, however many rows share the best score', () => {
    // Random rows, then 300 exact copies of the query stored largest id first (a row scanned
    // later can have a smaller id than those already kept): the copies tie, and the smallest of
    // their ids win.
    const rand = seededRandom(5);
    const index = createVectorIndex(options);
    const query = randomVec(rand, 64);
    for (let id = 1; id <= 700; id++) index.upsert('a', 'transcript', id, randomVec(rand, 64));
    for (let id = 1299; id >= 1000; id--) index.upsert('a', 'transcript', id, query);
    for (const k of [1, 10, 40]) {
      const hits = index.search('a', 'transcript', query, k);
      expect(hits.map((h) => h.id)).toEqual(Array.from({ length: k }, (_, i) => 1000 + i));
      for (const h of hits) expect(h.score).toBeCloseTo(1, 5);
    }
  });

  it('finds a stored vector as its own nearest neighbour with cosine 1', () => {
    const rand = seededRandom(7);
    const index = createVectorIndex(options);
    const rows: Float32Array[] = [];
    for (let id = 0; id < 500; id++) {
      rows.push(randomVec(rand, 384));
      index.upsert('a', 'pinned', id, rows[id] as Float32Array);
    }
    for (const id of [0, 137, 499]) {
      const [best] = index.search('a', 'pinned', rows[id] as Float32Array, 1);
      expect(best?.id).toBe(id);
      expect(best?.score).toBeCloseTo(1, 5);
    }
  });

  it('keeps agents and kinds isolated', () => {
    const index = createVectorIndex(options);
    const v = new Float32Array([1, 0, 0, 0]);
    index.upsert('alice', 'pinned', 1, v);
    index.upsert('alice', 'episode', 2, v);
    index.upsert('bob', 'pinned', 3, new Float32Array([0, 1, 0, 0]));
    expect(index.search('bob', 'pinned', v, 10).map((h) => h.id)).toEqual([3]);
    expect(index.search('alice', 'pinned', v, 10).map((h) => h.id)).toEqual([1]);
    expect(index.search('alice', 'transcript', v, 10)).toEqual([]);
    expect(index.search('carol', 'pinned', v, 10)).toEqual([]);
    expect(index.count()).toBe(3);
    expect(index.count('alice')).toBe(2);
    expect(index.count(undefined, 'pinned')).toBe(2);

    expect(index.removeAgent('alice')).toBe(2);
    expect(index.search('alice', 'pinned', v, 10)).toEqual([]);
    expect(index.has('pinned', 1)).toBe(false);
    expect(index.search('bob', 'pinned', v, 10).map((h) => h.id)).toEqual([3]);
  });

  it('removes and replaces vectors, staying consistent with brute force', () => {
    const rand = seededRandom(99);
    const index = createVectorIndex(options);
    const rows = new Map<number, Float32Array>();
    for (let id = 1; id <= 1500; id++) {
      const v = randomVec(rand, 40);
      rows.set(id, v);
      index.upsert('a', 'transcript', id, v);
    }
    // Remove a third (exercising swap-remove from the middle and the end) and replace some.
    for (let id = 1; id <= 1500; id += 3) {
      expect(index.remove('transcript', id)).toBe(true);
      rows.delete(id);
    }
    expect(index.remove('transcript', 1)).toBe(false);
    for (let id = 2; id <= 1500; id += 7) {
      const v = randomVec(rand, 40);
      rows.set(id, v);
      index.upsert('a', 'transcript', id, v);
    }
    expect(index.count('a', 'transcript')).toBe(rows.size);
    for (let q = 0; q < 20; q++) {
      const query = randomVec(rand, 40);
      expectSameHits(index.search('a', 'transcript', query, 15), bruteForce(rows, query, 15));
    }
    for (const id of rows.keys()) index.remove('transcript', id);
    expect(index.count()).toBe(0);
    expect(index.search('a', 'transcript', randomVec(rand, 40), 5)).toEqual([]);
  });

  it('honours accept() and still returns k results when enough rows pass', () => {
    const rand = seededRandom(5);
    const index = createVectorIndex(options);
    const rows = new Map<number, Float32Array>();
    for (let id = 1; id <= 2000; id++) {
      const v = randomVec(rand, 32);
      rows.set(id, v);
      index.upsert('a', 'pinned', id, v);
    }
    const even = (id: number) => id % 2 === 0;
    const query = randomVec(rand, 32);
    const hits = index.search('a', 'pinned', query, 20, even);
    expect(hits).toHaveLength(20);
    expect(hits.every((h) => even(h.id))).toBe(true);
    expectSameHits(hits, bruteForce(rows, query, 20, even));
    // A filter that rejects everything but two rows.
    const two = index.search('a', 'pinned', query, 10, (id) => id === 17 || id === 1999);
    expect(two.map((h) => h.id).sort((x, y) => x - y)).toEqual([17, 1999]);
  });

  it('moves a row to its new agent when re-upserted under another agent', () => {
    const index = createVectorIndex(options);
    const v = new Float32Array([0, 0, 1]);
    index.upsert('a', 'episode', 9, v);
    index.upsert('b', 'episode', 9, v);
    expect(index.search('a', 'episode', v, 5)).toEqual([]);
    expect(index.search('b', 'episode', v, 5).map((h) => h.id)).toEqual([9]);
    expect(index.count()).toBe(1);
  });
});

describe('vector index (contract)', () => {
  it('rejects vectors of another size and resets dims on clear()', () => {
    const index = createVectorIndex();
    index.upsert('a', 'pinned', 1, new Float32Array(8).fill(1));
    expect(index.dims).toBe(8);
    expect(() => index.upsert('a', 'pinned', 2, new Float32Array(4).fill(1))).toThrow(/dimensions/);
    expect(() => index.search('a', 'pinned', new Float32Array(4).fill(1), 1)).toThrow(/dimensions/);
    index.clear();
    expect(index.dims).toBeNull();
    expect(index.count()).toBe(0);
    index.upsert('a', 'pinned', 2, new Float32Array(4).fill(1));
    expect(index.dims).toBe(4);
  });

  it('returns [] for k < 1 and an unknown kind is an error', () => {
    const index = createVectorIndex();
    index.upsert('a', 'pinned', 1, new Float32Array([1, 2]));
    expect(index.search('a', 'pinned', new Float32Array([1, 2]), 0)).toEqual([]);
    expect(() => index.search('a', 'nope' as VectorKind, new Float32Array([1, 2]), 1)).toThrow(
      /kind/,
    );
  });

  it('stores normalised copies (the caller may reuse its array)', () => {
    const index = createVectorIndex();
    const v = new Float32Array([3, 4]);
    index.upsert('a', 'pinned', 1, v);
    v[0] = -100;
    expect(Array.from(index.vector('pinned', 1) ?? [])).toEqual([
      expect.closeTo(0.6, 6),
      expect.closeTo(0.8, 6),
    ]);
    expect(index.vector('pinned', 2)).toBeNull();
  });

  it.runIf(simdAvailable())('int8 path and exact path agree on a large bucket with growth', () => {
    const rand = seededRandom(2024);
    const exact = createVectorIndex({ simd: false });
    const fast = createVectorIndex({ quantizeFrom: 1000 }); // quantises mid-way, then grows
    for (let id = 1; id <= 6000; id++) {
      const v = randomVec(rand, 384);
      exact.upsert('a', 'transcript', id, v);
      fast.upsert('a', 'transcript', id, v);
    }
    for (let q = 0; q < 20; q++) {
      const query = randomVec(rand, 384);
      expectSameHits(
        fast.search('a', 'transcript', query, 10),
        exact.search('a', 'transcript', query, 10),
      );
    }
  });
});

describe.runIf(simdAvailable())('vector index (shared int8 arena)', () => {
  it('stays exact across many growing buckets, removals, compactions and clear()', () => {
    const rand = seededRandom(11);
    const index = createVectorIndex({ quantizeFrom: 40 });
    const agents = ['a', 'b', 'c', 'd', 'e', 'f'];
    const kinds: VectorKind[] = ['transcript', 'pinned'];
    const truth = new Map<string, Map<number, Float32Array>>();
    const key = (agent: string, kind: VectorKind) => `${agent}/${kind}`;
    let nextId = 1;
    // Interleaved inserts: every bucket grows (and reallocates its block) in turn.
    for (let round = 0; round < 120; round++) {
      for (const agent of agents) {
        for (const kind of kinds) {
          const v = randomVec(rand, 24);
          const id = nextId++;
          index.upsert(agent, kind, id, v);
          const m = truth.get(key(agent, kind)) ?? new Map<number, Float32Array>();
          m.set(id, v);
          truth.set(key(agent, kind), m);
        }
      }
    }
    const check = () => {
      for (const agent of agents) {
        for (const kind of kinds) {
          const rows = truth.get(key(agent, kind)) ?? new Map<number, Float32Array>();
          expect(index.count(agent, kind)).toBe(rows.size);
          for (let q = 0; q < 3; q++) {
            const query = randomVec(rand, 24);
            expectSameHits(index.search(agent, kind, query, 8), bruteForce(rows, query, 8));
          }
        }
      }
    };
    check();
    // Dropping agents and most rows of others frees blocks and forces compactions.
    expect(index.removeAgent('b')).toBe(240);
    truth.delete(key('b', 'transcript'));
    truth.delete(key('b', 'pinned'));
    index.removeAgent('d');
    truth.delete(key('d', 'transcript'));
    truth.delete(key('d', 'pinned'));
    for (const [k, rows] of truth) {
      const kind = k.split('/')[1] as VectorKind;
      let i = 0;
      for (const id of [...rows.keys()]) {
        if (i++ % 4 !== 0) {
          index.remove(kind, id);
          rows.delete(id);
        }
      }
    }
    check();
    // Growing again after compaction.
    for (let round = 0; round < 60; round++) {
      const v = randomVec(rand, 24);
      const id = nextId++;
      index.upsert('a', 'pinned', id, v);
      truth.get(key('a', 'pinned'))?.set(id, v);
    }
    check();
    index.clear();
    expect(index.count()).toBe(0);
    const rows = new Map<number, Float32Array>();
    for (let id = 1; id <= 300; id++) {
      const v = randomVec(rand, 16);
      rows.set(id, v);
      index.upsert('z', 'episode', id, v);
    }
    const query = randomVec(rand, 16);
    expectSameHits(index.search('z', 'episode', query, 5), bruteForce(rows, query, 5));
  });
});

describe('vector codec', () => {
  it('round-trips float32 little-endian, including unaligned buffers', () => {
    const v = new Float32Array([1.5, -2.25, 0, 3.4028234663852886e38, 1e-45]);
    const blob = encodeVector(v);
    expect(blob.byteLength).toBe(20);
    expect(blob.readFloatLE(4)).toBe(-2.25);
    expect(Array.from(decodeVector(blob, 5))).toEqual(Array.from(v));
    const shifted = Buffer.alloc(21);
    blob.copy(shifted, 1);
    expect(Array.from(decodeVector(shifted.subarray(1), 5))).toEqual(Array.from(v));
  });

  it('rejects BLOBs of the wrong length', () => {
    expect(() => decodeVector(Buffer.alloc(7))).toThrow();
    expect(() => decodeVector(Buffer.alloc(8), 3)).toThrow(/expected 12/);
  });
});
