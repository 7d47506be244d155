// A byte-pair-encoding tokenizer over compact tables, for counting the tokens of memory lines
// (tokens.ts). It encodes exactly as js-tiktoken does (same pre-tokenising pattern, same
// merge order), which the tests check on real text; what differs is the memory it holds.
// js-tiktoken keeps cl100k_base as a Map from "104,101,108,108,111"-style strings to ranks
// plus a Map of 100k Uint8Arrays: ~40 MB of small heap objects that every major GC of the
// server has to mark. Here the same table is three typed arrays (~2 MB, outside the JS heap's
// object graph), and encoding a word allocates nothing but its result.

/** The ranks file as js-tiktoken ships it (`js-tiktoken/ranks/cl100k_base`). */
export interface BpeRanks {
  pat_str: string;
  /** Lines of `<ignored> <first rank> <base64 token> <base64 token> ...`. */
  bpe_ranks: string;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export class BpeTokenizer {
  /** The bytes of every token, back to back, in rank order. */
  private readonly bytes: Uint8Array;
  /** Token `r` is `bytes[offsets[r] .. offsets[r + 1])` (empty for an unused rank). */
  private readonly offsets: Uint32Array;
  /** Open addressing, linear probing: rank + 1, or 0 for an empty slot. */
  private readonly table: Int32Array;
  private readonly mask: number;
  private readonly pattern: RegExp;
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder('utf-8');
  /** Scratch for one pre-tokenised piece, grown when a piece is longer. */
  private scratch = new Uint8Array(256);
  /** Scratch for the merge loop: part starts and the rank of each part with its right neighbour. */
  private starts = new Int32Array(256);
  private pairRanks = new Int32Array(256);

  constructor(ranks: BpeRanks) {
    this.pattern = new RegExp(ranks.pat_str, 'gu');
    const decoded: { rank: number; token: Buffer }[] = [];
    let maxRank = -1;
    let totalBytes = 0;
    for (const line of ranks.bpe_ranks.split('\n')) {
      if (line === '') continue;
      const fields = line.split(' ');
      const first = Number.parseInt(fields[1] ?? '', 10);
      if (!Number.isInteger(first)) throw new Error('malformed BPE ranks line');
      for (let i = 2; i < fields.length; i++) {
        const token = Buffer.from(fields[i]!, 'base64');
        const rank = first + i - 2;
        decoded.push({ rank, token });
        totalBytes += token.length;
        if (rank > maxRank) maxRank = rank;
      }
    }
    decoded.sort((a, b) => a.rank - b.rank);
    this.bytes = new Uint8Array(totalBytes);
    this.offsets = new Uint32Array(maxRank + 2);
    let at = 0;
    let next = 0;
    for (let rank = 0; rank <= maxRank; rank++) {
      this.offsets[rank] = at;
      const d = decoded[next];
      if (d !== undefined && d.rank === rank) {
        this.bytes.set(d.token, at);
        at += d.token.length;
        next++;
      }
    }
    this.offsets[maxRank + 1] = at;

    let size = 1;
    while (size < decoded.length * 2) size <<= 1;
    this.table = new Int32Array(size);
    this.mask = size - 1;
    for (const { rank } of decoded) {
      const start = this.offsets[rank]!;
      const end = this.offsets[rank + 1]!;
      let slot = this.hash(this.bytes, start, end) & this.mask;
      while (this.table[slot] !== 0) slot = (slot + 1) & this.mask;
      this.table[slot] = rank + 1;
    }
  }

  /** The token ids of `text` (special-token strings are plain text, as in tokens.ts). */
  encode(text: string): number[] {
    const out: number[] = [];
    this.forEachToken(text, (rank) => out.push(rank));
    return out;
  }

  /** How many tokens `encode(text)` would return, without building the array. */
  count(text: string): number {
    let n = 0;
    this.forEachToken(text, () => n++);
    return n;
  }

  /** The text of these token ids (a cut inside a character decodes to U+FFFD). */
  decode(tokens: readonly number[]): string {
    let length = 0;
    for (const t of tokens) length += this.tokenLength(t);
    const out = new Uint8Array(length);
    let at = 0;
    for (const t of tokens) {
      const len = this.tokenLength(t);
      if (len === 0) continue;
      out.set(this.bytes.subarray(this.offsets[t]!, this.offsets[t]! + len), at);
      at += len;
    }
    return this.decoder.decode(out);
  }

  private tokenLength(rank: number): number {
    if (!Number.isInteger(rank) || rank < 0 || rank + 1 >= this.offsets.length) return 0;
    return this.offsets[rank + 1]! - this.offsets[rank]!;
  }

  private forEachToken(text: string, emit: (rank: number) => void): void {
    const pattern = this.pattern;
    pattern.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = pattern.exec(text)) !== null) {
      const piece = match[0];
      if (piece === '') {
        // cannot happen with the cl100k pattern; guards against an endless loop
        pattern.lastIndex++;
        continue;
      }
      const n = this.pieceBytes(piece);
      const whole = this.lookup(this.scratch, 0, n);
      if (whole >= 0) emit(whole);
      else this.mergePiece(n, emit);
    }
  }

  /** Writes the UTF-8 bytes of `piece` into the scratch buffer; returns their count. */
  private pieceBytes(piece: string): number {
    if (this.scratch.length < piece.length * 3) {
      this.scratch = new Uint8Array(piece.length * 3);
    }
    const scratch = this.scratch;
    for (let i = 0; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      if (c >= 0x80) return this.encoder.encodeInto(piece, scratch).written;
      scratch[i] = c;
    }
    return piece.length;
  }

  /**
   * Byte-pair merging of scratch[0..n), as js-tiktoken does it: while some pair of adjacent
   * parts forms a token, merge the pair with the lowest rank (the leftmost on a tie). The rank
   * of each pair is kept and only the two pairs next to a merge are looked up again.
   */
  private mergePiece(n: number, emit: (rank: number) => void): void {
    if (this.starts.length < n + 1) {
      this.starts = new Int32Array(n + 1);
      this.pairRanks = new Int32Array(n + 1);
    }
    const starts = this.starts;
    const pairRanks = this.pairRanks;
    const scratch = this.scratch;
    let parts = n;
    for (let i = 0; i <= n; i++) starts[i] = i;
    // pairRanks[i]: rank of parts i and i+1 together, or -1
    for (let i = 0; i < parts - 1; i++) pairRanks[i] = this.lookup(scratch, i, i + 2);
    while (parts > 1) {
      let best = -1;
      let bestRank = 0;
      for (let i = 0; i < parts - 1; i++) {
        const r = pairRanks[i]!;
        if (r >= 0 && (best < 0 || r < bestRank)) {
          best = i;
          bestRank = r;
        }
      }
      if (best < 0) break;
      // Part best absorbs part best+1: drop the boundary between them.
      starts.copyWithin(best + 1, best + 2, parts + 1);
      pairRanks.copyWithin(best, best + 1, parts - 1);
      parts--;
      if (best < parts - 1) {
        pairRanks[best] = this.lookup(scratch, starts[best]!, starts[best + 2]!);
      }
      if (best > 0) {
        pairRanks[best - 1] = this.lookup(scratch, starts[best - 1]!, starts[best + 1]!);
      }
    }
    for (let i = 0; i < parts; i++) {
      const rank = this.lookup(scratch, starts[i]!, starts[i + 1]!);
      // Every single byte is a token in a byte-level BPE; js-tiktoken drops what is not.
      if (rank >= 0) emit(rank);
    }
  }

  private hash(buf: Uint8Array, start: number, end: number): number {
    let h = FNV_OFFSET;
    for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i]!, FNV_PRIME);
    return h >>> 0;
  }

  /** The rank of the token whose bytes are buf[start..end), or -1. */
  private lookup(buf: Uint8Array, start: number, end: number): number {
    const len = end - start;
    let slot = this.hash(buf, start, end) & this.mask;
    for (;;) {
      const entry = this.table[slot]!;
      if (entry === 0) return -1;
      const rank = entry - 1;
      const from = this.offsets[rank]!;
      if (this.offsets[rank + 1]! - from === len) {
        let same = true;
        for (let i = 0; i < len; i++) {
          if (this.bytes[from + i] !== buf[start + i]) {
            same = false;
            break;
          }
        }
        if (same) return rank;
      }
      slot = (slot + 1) & this.mask;
    }
  }
}
