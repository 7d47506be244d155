// In-memory per-agent vector index (DESIGN §4, §7): built at start-up from the encrypted
// BLOBs, so no plaintext index ever touches the disk.
//
// Each (agent, kind) bucket is one contiguous, growable Float32Array matrix (row = one
// L2-normalised vector) plus a row-id column. Search is exact brute-force cosine:
//
// - small buckets (< `quantizeFrom` rows): a plain dot-product scan over the float matrix;
// - large buckets: a first pass over an int8 copy of the matrix held in WebAssembly memory and
//   scored by a SIMD kernel (a quarter of the memory traffic of float32, which is what bounds
//   a brute-force scan), keeping a candidate pool of 2k+32 rows, then an exact float32
//   re-ranking of that pool. The int8 error (~1e-3 on a cosine) is far below the score gap
//   between the k-th and the (2k+32)-th neighbour, so results match the exact scan.
//
// Top-k uses a bounded min-heap; `accept` is consulted only for rows that would enter it.
// Agents are isolated by construction: a search only ever reads its own bucket.

import { KERNEL_WASM_BASE64 } from './kernel-wasm.ts';
import { ErrorCode } from '../../../shared/errors.ts';
import { CairnError } from '../errors.ts';

import type { VectorKind } from '../store/vectors.ts';

export type { VectorKind };
export const VECTOR_KINDS: readonly VectorKind[] = ['transcript', 'episode', 'pinned'];

export interface VectorHit {
  /** Row id in the source table (transcript.id, episodes.id, pinned_facts.id). */
  id: number;
  /** Cosine similarity, -1..1. */
  score: number;
}

export interface VectorIndexOptions {
  /** Use the WebAssembly SIMD kernel for large buckets (default: when the runtime has it). */
  simd?: boolean;
  /** Bucket size from which the int8 first pass is used (default 512). */
  quantizeFrom?: number;
}

export interface VectorIndex {
  /** Dimensions of the stored vectors; fixed by the first upsert, reset by clear(). */
  readonly dims: number | null;
  /** Adds or replaces the vector of (kind, id). The vector is copied and L2-normalised. */
  upsert(agentId: string, kind: VectorKind, id: number, vec: Float32Array): void;
  /** Removes (kind, id) whatever its agent; false when it was not indexed. */
  remove(kind: VectorKind, id: number): boolean;
  /** Drops every vector of an agent; returns how many were removed. */
  removeAgent(agentId: string): number;
  has(kind: VectorKind, id: number): boolean;
  /** A copy of the stored (normalised) vector, or null. */
  vector(kind: VectorKind, id: number): Float32Array | null;
  /** The k nearest rows of this agent and kind by cosine, best first. */
  search(
    agentId: string,
    kind: VectorKind,
    query: Float32Array,
    k: number,
    accept?: (id: number) => boolean,
  ): VectorHit[];
  count(agentId?: string, kind?: VectorKind): number;
  /** Forgets everything, including dims (used when the embedding model changes). */
  clear(): void;
}

const DEFAULT_QUANTIZE_FROM = 512;
const INITIAL_CAPACITY = 64;
/** int8 rows are padded to a multiple of this many bytes (the kernel's step). */
const KERNEL_STEP = 32;
/** Query components are quantised to ±QUERY_RANGE (i16); rows to ±127 (i8). */
const QUERY_RANGE = 2047;
const ROW_RANGE = 127;
const WASM_PAGE = 65536;

// --- WebAssembly SIMD kernel -------------------------------------------------------------------
//
// scores(mat, q, out, n, stride): for r in 0..n: out[r] (i32) = Σ_j mat[r*stride + j] (i8) * q[j]
// (i16), 32 int8 lanes per iteration. Its source is kernel.wat; `npm run kernel` compiles it
// (wabt) into kernel-wasm.ts, and kernel.test.ts checks that the two agree.

function kernelBytes(): Uint8Array {
  return new Uint8Array(Buffer.from(KERNEL_WASM_BASE64, 'base64'));
}

type ScoresFn = (mat: number, q: number, out: number, n: number, stride: number) => void;

// The few WebAssembly APIs used here (the Node typings do not declare the global).
type WasmModule = object;
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(deltaPages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (
    module: WasmModule,
    imports: Record<string, Record<string, unknown>>,
  ) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

let compiledKernel: WasmModule | null | undefined;

/** The compiled kernel, or null where WebAssembly SIMD is unavailable. Compiled once. */
function kernelModule(): WasmModule | null {
  if (compiledKernel === undefined) {
    try {
      const bytes = kernelBytes();
      compiledKernel = wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
    } catch {
      compiledKernel = null;
    }
  }
  return compiledKernel;
}

/** Whether this runtime can use the SIMD kernel. */
export function simdAvailable(): boolean {
  return kernelModule() !== null;
}

// --- int8 arena --------------------------------------------------------------------------
//
// All int8 copies of one index live in a single WebAssembly memory (an arena), one block
// per bucket, allocated by bumping `top`. Freed blocks are reclaimed by compaction once they
// are more than half of the arena. Each WebAssembly memory reserves a large range of address
// space, so one per index (not one per agent) keeps many agents cheap. The query and score
// scratch of a search sit just above `top`.

interface Arena {
  memory: WasmMemory;
  scores: ScoresFn;
  /** End of the last block, in bytes. */
  top: number;
  /** Bytes in blocks freed since the last compaction. */
  wasted: number;
}

/** The int8 copy of one bucket: a block of `capacity * stride` bytes at `offset`. */
interface Quantized {
  offset: number;
  stride: number; // bytes per row (dims padded to KERNEL_STEP)
  capacity: number;
  scales: Float32Array; // per-row dequantisation factor
}

interface Bucket {
  agentId: string;
  kind: VectorKind;
  count: number;
  capacity: number;
  ids: Float64Array;
  matrix: Float32Array;
  slots: Map<number, number>;
  quant: Quantized | null;
}

/** Makes the arena at least `bytes` long (throws RangeError when memory is exhausted). */
function reserve(arena: Arena, bytes: number): void {
  const have = arena.memory.buffer.byteLength;
  if (bytes <= have) return;
  const needed = Math.ceil(bytes / WASM_PAGE) - have / WASM_PAGE;
  // Grow by at least a quarter so a growing bucket does not grow the memory every time.
  const extra = Math.max(needed, Math.ceil(have / WASM_PAGE / 4));
  try {
    arena.memory.grow(extra);
  } catch {
    arena.memory.grow(needed);
  }
}

function arenaBytes(arena: Arena): Int8Array {
  return new Int8Array(arena.memory.buffer);
}

function quantizeRow(
  arena: Arena,
  q: Quantized,
  slot: number,
  matrix: Float32Array,
  dims: number,
): void {
  const bytes = arenaBytes(arena);
  const base = slot * dims;
  let maxAbs = 0;
  for (let j = 0; j < dims; j++) {
    const a = Math.abs(matrix[base + j] as number);
    if (a > maxAbs) maxAbs = a;
  }
  const rowBase = q.offset + slot * q.stride;
  if (maxAbs === 0) {
    bytes.fill(0, rowBase, rowBase + q.stride);
    q.scales[slot] = 0;
    return;
  }
  const f = ROW_RANGE / maxAbs;
  for (let j = 0; j < dims; j++) bytes[rowBase + j] = Math.round((matrix[base + j] as number) * f);
  bytes.fill(0, rowBase + dims, rowBase + q.stride);
  q.scales[slot] = maxAbs / ROW_RANGE;
}

/** Dot product of matrix row `slot` with q (four accumulators; exact float64 sums). */
function dotRow(matrix: Float32Array, slot: number, q: Float32Array, dims: number): number {
  let o = slot * dims;
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let j = 0;
  for (; j + 4 <= dims; j += 4, o += 4) {
    a += (matrix[o] as number) * (q[j] as number);
    b += (matrix[o + 1] as number) * (q[j + 1] as number);
    c += (matrix[o + 2] as number) * (q[j + 2] as number);
    d += (matrix[o + 3] as number) * (q[j + 3] as number);
  }
  for (; j < dims; j++, o++) a += (matrix[o] as number) * (q[j] as number);
  return a + b + c + d;
}

// --- bounded min-heap ----------------------------------------------------------------------

/**
 * Keeps the `cap` best (score, id) pairs seen; the root is the weakest kept. Equal scores
 * are ordered by id (lower id wins), so results are deterministic whatever the scan order.
 */
class TopK {
  readonly cap: number;
  size = 0;
  private readonly scores: Float64Array;
  private readonly ids: Float64Array;
  private readonly slots: Int32Array;

  constructor(cap: number) {
    this.cap = cap;
    this.scores = new Float64Array(cap);
    this.ids = new Float64Array(cap);
    this.slots = new Int32Array(cap);
  }

  /** Whether heap entry i ranks below (score, id). */
  private below(i: number, score: number, id: number): boolean {
    const s = this.scores[i] as number;
    return s < score || (s === score && (this.ids[i] as number) > id);
  }

  /** The lowest score kept (the root; meaningful once the heap is full). */
  lowest(): number {
    return this.scores[0] as number;
  }

  /** True when (score, id) would be kept (call before the possibly costly accept check). */
  wants(score: number, id: number): boolean {
    return this.size < this.cap || this.below(0, score, id);
  }

  push(score: number, id: number, slot: number): void {
    const s = this.scores;
    const ids = this.ids;
    const p = this.slots;
    let i: number;
    if (this.size < this.cap) {
      // Sift up from the new leaf.
      i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (this.below(parent, score, id)) break;
        s[i] = s[parent] as number;
        ids[i] = ids[parent] as number;
        p[i] = p[parent] as number;
        i = parent;
      }
    } else {
      if (!this.below(0, score, id)) return;
      // Replace the root and sift down.
      i = 0;
      const n = this.size;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const m = r < n && this.below(r, s[l] as number, ids[l] as number) ? r : l;
        if (!this.below(m, score, id)) break;
        s[i] = s[m] as number;
        ids[i] = ids[m] as number;
        p[i] = p[m] as number;
        i = m;
      }
    }
    s[i] = score;
    ids[i] = id;
    p[i] = slot;
  }

  entries(): { slot: number; score: number }[] {
    const out: { slot: number; score: number }[] = [];
    for (let i = 0; i < this.size; i++) {
      out.push({ slot: this.slots[i] as number, score: this.scores[i] as number });
    }
    return out;
  }
}

function normalised(vec: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vec.length; i++) sum += (vec[i] as number) * (vec[i] as number);
  const out = new Float32Array(vec.length);
  if (sum === 0 || !Number.isFinite(sum)) return out;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < vec.length; i++) out[i] = (vec[i] as number) * inv;
  return out;
}

// --- the index -------------------------------------------------------------------------------

export function createVectorIndex(options: VectorIndexOptions = {}): VectorIndex {
  const kernel = options.simd === false ? null : kernelModule();
  if (options.simd === true && !kernel) {
    throw new CairnError(ErrorCode.Internal, 'WebAssembly SIMD is not available in this runtime.');
  }
  const quantizeFrom = Math.max(1, options.quantizeFrom ?? DEFAULT_QUANTIZE_FROM);

  let dims: number | null = null;
  /** agentId → kind → bucket */
  const buckets = new Map<string, Map<VectorKind, Bucket>>();
  /** kind → row id → bucket (row ids are unique per kind, whatever the agent) */
  const owners = new Map<VectorKind, Map<number, Bucket>>(VECTOR_KINDS.map((k) => [k, new Map()]));
  let arena: Arena | null = null;
  /** Set when the arena could not grow: from then on every search is exact. */
  let arenaFailed = false;

  const ownersOf = (kind: VectorKind): Map<number, Bucket> => {
    const m = owners.get(kind);
    if (!m) throw new CairnError(ErrorCode.BadRequest, `Unknown vector kind: ${String(kind)}`);
    return m;
  };

  const allBuckets = function* (): Generator<Bucket> {
    for (const perAgent of buckets.values()) yield* perAgent.values();
  };

  // --- arena management ---

  const getArena = (): Arena | null => {
    if (arena || arenaFailed || !kernel || !wasm) return arena;
    const memory = new wasm.Memory({ initial: 1 });
    const instance = new wasm.Instance(kernel, { env: { mem: memory } });
    arena = { memory, scores: instance.exports.scores as ScoresFn, top: 0, wasted: 0 };
    return arena;
  };

  /** Gives up on the int8 path (out of memory): exact scans are slower but correct. */
  const dropArena = (): void => {
    arena = null;
    arenaFailed = true;
    for (const b of allBuckets()) b.quant = null;
  };

  const compact = (a: Arena): void => {
    const live = [...allBuckets()]
      .filter((b) => b.quant !== null)
      .sort((x, y) => (x.quant as Quantized).offset - (y.quant as Quantized).offset);
    const bytes = arenaBytes(a);
    let top = 0;
    for (const b of live) {
      const q = b.quant as Quantized;
      const size = q.capacity * q.stride;
      if (q.offset !== top) bytes.copyWithin(top, q.offset, q.offset + b.count * q.stride);
      q.offset = top;
      top += size;
    }
    a.top = top;
    a.wasted = 0;
  };

  const freeBlock = (a: Arena, q: Quantized): void => {
    a.wasted += q.capacity * q.stride;
    if (a.wasted * 2 > a.top) compact(a);
  };

  /** A new block of `capacity` rows; throws RangeError when the memory cannot grow. */
  const allocBlock = (a: Arena, stride: number, capacity: number): number => {
    const offset = a.top;
    reserve(a, offset + capacity * stride);
    a.top = offset + capacity * stride;
    return offset;
  };

  const maybeQuantize = (b: Bucket, d: number): void => {
    if (b.quant || b.count < quantizeFrom) return;
    const a = getArena();
    if (!a) return;
    const stride = Math.ceil(d / KERNEL_STEP) * KERNEL_STEP;
    try {
      const offset = allocBlock(a, stride, b.capacity);
      const q: Quantized = {
        offset,
        stride,
        capacity: b.capacity,
        scales: new Float32Array(b.capacity),
      };
      for (let s = 0; s < b.count; s++) quantizeRow(a, q, s, b.matrix, d);
      b.quant = q;
    } catch {
      dropArena();
    }
  };

  const growQuantized = (b: Bucket, capacity: number): void => {
    const a = arena;
    const q = b.quant;
    if (!a || !q) return;
    try {
      const offset = allocBlock(a, q.stride, capacity);
      arenaBytes(a).copyWithin(offset, q.offset, q.offset + b.count * q.stride);
      const old = { ...q };
      q.offset = offset;
      q.capacity = capacity;
      const scales = new Float32Array(capacity);
      scales.set(q.scales);
      q.scales = scales;
      // Free the old block last: a compaction moves the new block too (updating q.offset).
      freeBlock(a, old);
    } catch {
      dropArena();
    }
  };

  // --- buckets ---

  const bucketFor = (agentId: string, kind: VectorKind, create: boolean): Bucket | undefined => {
    let perAgent = buckets.get(agentId);
    if (!perAgent) {
      if (!create) return undefined;
      perAgent = new Map();
      buckets.set(agentId, perAgent);
    }
    let b = perAgent.get(kind);
    if (!b && create) {
      const d = dims as number;
      b = {
        agentId,
        kind,
        count: 0,
        capacity: INITIAL_CAPACITY,
        ids: new Float64Array(INITIAL_CAPACITY),
        matrix: new Float32Array(INITIAL_CAPACITY * d),
        slots: new Map(),
        quant: null,
      };
      perAgent.set(kind, b);
    }
    return b;
  };

  const dropBucket = (b: Bucket): void => {
    const perAgent = buckets.get(b.agentId);
    if (perAgent?.get(b.kind) === b) perAgent.delete(b.kind);
    if (perAgent && perAgent.size === 0) buckets.delete(b.agentId);
    if (b.quant && arena) {
      const q = b.quant;
      b.quant = null;
      freeBlock(arena, q);
    }
  };

  const ensureCapacity = (b: Bucket, d: number): void => {
    if (b.count < b.capacity) return;
    const capacity = Math.ceil(b.capacity * 1.5);
    const matrix = new Float32Array(capacity * d);
    matrix.set(b.matrix);
    const ids = new Float64Array(capacity);
    ids.set(b.ids);
    b.matrix = matrix;
    b.ids = ids;
    b.capacity = capacity;
    if (b.quant) growQuantized(b, capacity);
  };

  const removeFromBucket = (b: Bucket, id: number): void => {
    const slot = b.slots.get(id);
    if (slot === undefined) return;
    const d = dims as number;
    const last = b.count - 1;
    if (slot !== last) {
      // Swap-remove: the last row moves into the hole, so the matrix stays contiguous.
      b.matrix.copyWithin(slot * d, last * d, last * d + d);
      const movedId = b.ids[last] as number;
      b.ids[slot] = movedId;
      b.slots.set(movedId, slot);
      if (b.quant && arena) {
        const { offset, stride } = b.quant;
        arenaBytes(arena).copyWithin(
          offset + slot * stride,
          offset + last * stride,
          offset + last * stride + stride,
        );
        b.quant.scales[slot] = b.quant.scales[last] as number;
      }
    }
    b.slots.delete(id);
    b.count = last;
    if (b.count === 0) dropBucket(b);
  };

  const checkDims = (vec: Float32Array, what: string): number => {
    if (!(vec instanceof Float32Array) || vec.length === 0) {
      throw new CairnError(ErrorCode.BadRequest, `${what} must be a non-empty Float32Array.`);
    }
    if (dims !== null && vec.length !== dims) {
      throw new CairnError(
        ErrorCode.Internal,
        `${what} has ${vec.length} dimensions; the index holds ${dims}-dimensional vectors.`,
      );
    }
    return vec.length;
  };

  // --- search ---

  const exactSearch = (
    b: Bucket,
    q: Float32Array,
    k: number,
    accept: ((id: number) => boolean) | undefined,
  ): TopK => {
    const d = dims as number;
    const heap = new TopK(Math.min(k, b.count));
    for (let s = 0; s < b.count; s++) {
      const score = dotRow(b.matrix, s, q, d);
      const id = b.ids[s] as number;
      if (heap.wants(score, id) && (!accept || accept(id))) heap.push(score, id, s);
    }
    return heap;
  };

  /** int8 first pass over the arena, exact re-ranking of the pool; null if no scratch space. */
  const quantizedSearch = (
    a: Arena,
    b: Bucket,
    quant: Quantized,
    q: Float32Array,
    k: number,
    accept: ((id: number) => boolean) | undefined,
  ): TopK | null => {
    const d = dims as number;
    const { stride, offset } = quant;
    const qOffset = Math.ceil(a.top / KERNEL_STEP) * KERNEL_STEP;
    const outOffset = qOffset + stride * 2;
    try {
      reserve(a, outOffset + b.count * 4);
    } catch {
      return null;
    }
    const buf = a.memory.buffer;
    const qi = new Int16Array(buf, qOffset, stride);
    let maxAbs = 0;
    for (let j = 0; j < d; j++) maxAbs = Math.max(maxAbs, Math.abs(q[j] as number));
    const f = maxAbs === 0 ? 0 : QUERY_RANGE / maxAbs;
    for (let j = 0; j < d; j++) qi[j] = Math.round((q[j] as number) * f);
    qi.fill(0, d);
    a.scores(offset, qOffset, outOffset, b.count, stride);
    const raw = new Int32Array(buf, outOffset, b.count);

    // First pass: a pool of the best candidates by approximate score.
    const pool = new TopK(Math.min(b.count, 2 * k + 32));
    const scales = quant.scales;
    const ids = b.ids;
    const count = b.count;
    // Below the pool's lowest score once it is full, a row cannot get in (a tie still may,
    // by its id): most rows stop at this one comparison.
    let floor = -Infinity;
    for (let s = 0; s < count; s++) {
      const approx = (raw[s] as number) * (scales[s] as number);
      if (approx < floor) continue;
      const id = ids[s] as number;
      if (pool.wants(approx, id) && (!accept || accept(id))) {
        pool.push(approx, id, s);
        if (pool.size === pool.cap) floor = pool.lowest();
      }
    }
    // Second pass: exact float32 scores for the pool.
    const heap = new TopK(Math.min(k, pool.size));
    for (const { slot } of pool.entries()) {
      heap.push(dotRow(b.matrix, slot, q, d), b.ids[slot] as number, slot);
    }
    return heap;
  };

  return {
    get dims() {
      return dims;
    },

    upsert(agentId, kind, id, vec) {
      const d = checkDims(vec, 'Vector');
      if (!Number.isSafeInteger(id)) {
        throw new CairnError(ErrorCode.BadRequest, 'Vector id must be an integer.');
      }
      const kindOwners = ownersOf(kind);
      const existing = kindOwners.get(id);
      if (existing && existing.agentId !== agentId) {
        removeFromBucket(existing, id);
        kindOwners.delete(id);
      }
      if (dims === null) dims = d;
      const b = bucketFor(agentId, kind, true) as Bucket;
      let slot = b.slots.get(id);
      if (slot === undefined) {
        ensureCapacity(b, d);
        slot = b.count++;
        b.slots.set(id, slot);
        b.ids[slot] = id;
      }
      b.matrix.set(normalised(vec), slot * d);
      kindOwners.set(id, b);
      if (b.quant && arena) quantizeRow(arena, b.quant, slot, b.matrix, d);
      else maybeQuantize(b, d);
    },

    remove(kind, id) {
      const kindOwners = ownersOf(kind);
      const b = kindOwners.get(id);
      if (!b) return false;
      removeFromBucket(b, id);
      kindOwners.delete(id);
      return true;
    },

    removeAgent(agentId) {
      const perAgent = buckets.get(agentId);
      if (!perAgent) return 0;
      let removed = 0;
      for (const b of [...perAgent.values()]) {
        const kindOwners = ownersOf(b.kind);
        for (const id of b.slots.keys()) kindOwners.delete(id);
        removed += b.count;
        dropBucket(b);
      }
      buckets.delete(agentId);
      return removed;
    },

    has(kind, id) {
      return ownersOf(kind).has(id);
    },

    vector(kind, id) {
      const b = ownersOf(kind).get(id);
      const slot = b?.slots.get(id);
      if (!b || slot === undefined || dims === null) return null;
      return b.matrix.slice(slot * dims, slot * dims + dims);
    },

    search(agentId, kind, query, k, accept) {
      ownersOf(kind);
      const b = bucketFor(agentId, kind, false);
      if (!b || b.count === 0 || dims === null || !(k >= 1)) return [];
      checkDims(query, 'Query vector');
      const q = normalised(query);
      const limit = Math.floor(k);
      const heap =
        (b.quant && arena && b.count > 2 * limit + 32
          ? quantizedSearch(arena, b, b.quant, q, limit, accept)
          : null) ?? exactSearch(b, q, limit, accept);
      const hits = heap.entries().map(({ slot, score }) => ({ id: b.ids[slot] as number, score }));
      hits.sort((x, y) => y.score - x.score || x.id - y.id);
      return hits;
    },

    count(agentId, kind) {
      let n = 0;
      for (const [a, perAgent] of buckets) {
        if (agentId !== undefined && a !== agentId) continue;
        for (const [k, b] of perAgent) if (kind === undefined || k === kind) n += b.count;
      }
      return n;
    },

    clear() {
      buckets.clear();
      for (const m of owners.values()) m.clear();
      dims = null;
      arena = null; // a fresh arena next time; the old memory is garbage
      arenaFailed = false;
    },
  };
}
