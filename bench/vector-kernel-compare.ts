// The vector index's search (WebAssembly int8 kernel + float32 re-ranking, and the plain
// float32 scan) against usearch's exact search (a native addon with prebuilt binaries),
// for the decision written in src/main/engine/vector/README.md (issue 14, item 5).
// usearch is not a dependency: fetch it with `npm pack usearch@2.26.2`, unpack it and run
//   USEARCH_NODE=<unpacked>/package/prebuilds/linux-x64/usearch.node node bench/vector-kernel-compare.ts
// One thread for usearch, as the engine searches on its event loop.

import { createRequire } from 'node:module';
import { createVectorIndex } from '../src/main/engine/vector/vector-index.ts';
import { seededRandom } from '../test/helpers/seeded-random.ts';

interface Usearch {
  exactSearch(
    dataset: Float32Array | Int8Array,
    query: Float32Array | Int8Array,
    dims: number,
    k: number,
    metric: 'ip',
    threads: number,
  ): [BigUint64Array, Float32Array];
}

const DIMS = 384;
const K = 10;
const QUERIES = 200;
/** int8 scale for usearch's i8 path: components of a random unit vector stay within ±0.3. */
const I8_SCALE = 127 / 0.3;

function unitVector(rand: () => number): Float32Array {
  const v = new Float32Array(DIMS);
  let norm = 0;
  for (let i = 0; i < DIMS; i++) {
    const x = rand() * 2 - 1;
    v[i] = x;
    norm += x * x;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < DIMS; i++) v[i] = (v[i] as number) / norm;
  return v;
}

function toInt8(v: Float32Array): Int8Array {
  return Int8Array.from(v, (x) => Math.max(-127, Math.min(127, Math.round(x * I8_SCALE))));
}

function microseconds(fn: () => void): number {
  const t = performance.now();
  fn();
  return (performance.now() - t) * 1000;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;

function main(): void {
  const path = process.env.USEARCH_NODE;
  if (!path) {
    console.error('Set USEARCH_NODE to usearch.node (see the header of this file).');
    process.exitCode = 2;
    return;
  }
  const usearch = createRequire(import.meta.url)(path) as Usearch;
  const rand = seededRandom(7);
  for (const n of [1_000, 10_000, 100_000]) {
    const rows = Array.from({ length: n }, () => unitVector(rand));
    const flat = new Float32Array(n * DIMS);
    rows.forEach((r, i) => flat.set(r, i * DIMS));
    const flatI8 = toInt8(flat);
    const wasm = createVectorIndex();
    const plain = createVectorIndex({ simd: false });
    rows.forEach((r, i) => {
      wasm.upsert('a', 'pinned', i + 1, r);
      plain.upsert('a', 'pinned', i + 1, r);
    });
    const times = {
      wasm: [] as number[],
      js: [] as number[],
      f32: [] as number[],
      i8: [] as number[],
    };
    let same = 0;
    for (let i = 0; i < QUERIES; i++) {
      const q = unitVector(rand);
      const qI8 = toInt8(q);
      let ours: number[] = [];
      let theirs: number[] = [];
      times.wasm.push(
        microseconds(() => {
          ours = wasm.search('a', 'pinned', q, K).map((h) => h.id - 1);
        }),
      );
      times.js.push(microseconds(() => plain.search('a', 'pinned', q, K)));
      times.f32.push(
        microseconds(() => {
          theirs = Array.from(usearch.exactSearch(flat, q, DIMS, K, 'ip', 1)[0], Number);
        }),
      );
      times.i8.push(microseconds(() => usearch.exactSearch(flatI8, qI8, DIMS, K, 'ip', 1)));
      if (ours.join() === theirs.join()) same++;
    }
    console.log(
      `${n} vectors x ${DIMS} dims, top ${K}, median µs per search: ` +
        `index (wasm int8 + re-rank) ${median(times.wasm).toFixed(0)}, ` +
        `index (float32 scan) ${median(times.js).toFixed(0)}, ` +
        `usearch exact f32 ${median(times.f32).toFixed(0)}, ` +
        `usearch exact i8 (no re-rank) ${median(times.i8).toFixed(0)}; ` +
        `same top ${K} as usearch f32: ${same}/${QUERIES}`,
    );
  }
}

main();
