import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWordVectorAsset as ensureTestAsset } from '../../../../test/helpers/word-vectors.ts';
import {
  buildWordVectorAsset,
  ensureWordVectorAsset,
  readWordVectorAsset,
  winkVectorsSourcePath,
} from './word-vectors-asset.ts';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'cairn-wv-asset-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * A source in the package's layout: words in frequency order, vector + norm + index. Written
 * as text: a JS object would put integer-like keys ("2024") first.
 */
function source(entries: [string, number[]][]): string {
  const vectors = entries
    .map(([w, v], i) => `${JSON.stringify(w)}:${JSON.stringify([...v, Math.hypot(...v), i])}`)
    .join(',');
  const words = JSON.stringify(entries.map((e) => e[0]));
  const path = join(tmp, `source-${entries.length}-${Math.random()}.json`);
  writeFileSync(
    path,
    `{"precision":8,"size":${entries.length},"dimensions":3,"words":${words},"vectors":{${vectors}},"unkVector":[0,0,0,0,-1]}`,
  );
  return path;
}

describe('word-vector asset', () => {
  it('keeps words in frequency order, skips punctuation, numbers and clitics, stops at the cut', async () => {
    const src = source([
      ['the', [1, 0, 0]],
      [',', [0, 1, 0]],
      ['"', [0, 0, 1]],
      ['tea', [0.5, -0.2, 0]],
      ["'s", [1, 1, 1]],
      ['2024', [1, 1, 0]],
      ['e-mail', [0, 2, 0]],
      ['coffee', [0, 0, -3]],
      ['never', [1, 2, 3]],
    ]);
    const out = join(tmp, 'a.bin');
    const r = await buildWordVectorAsset({ sourcePath: src, outPath: out, maxWords: 4 });
    expect(r).toMatchObject({ words: 4, dims: 3 });
    const data = readWordVectorAsset(out);
    expect(data.words).toEqual(['the', 'tea', 'e-mail', 'coffee']);
    expect([...data.ranks]).toEqual([0, 3, 6, 7]);
    // Per-vector int8: the largest component is ±127, the others in proportion.
    expect([...data.codes.subarray(3, 6)]).toEqual([127, -51, 0]);
    expect([...data.codes.subarray(9, 12)]).toEqual([0, 0, -127]);
  });

  it('replaces the other cuts beside the one it writes, and nothing else', async () => {
    const dir = mkdtempSync(join(tmp, 'cuts-'));
    writeFileSync(join(dir, 'wink-sg100d-50k-int8.bin'), 'an older cut');
    writeFileSync(join(dir, 'notes.bin'), 'not a cut');
    const src = source([['tea', [1, 0, 0]]]);
    await buildWordVectorAsset({ sourcePath: src, outPath: join(dir, 'custom.bin') });
    expect(readdirSync(dir).sort()).toEqual([
      'custom.bin',
      'notes.bin',
      'wink-sg100d-50k-int8.bin',
    ]);
    await buildWordVectorAsset({
      sourcePath: src,
      outPath: join(dir, 'wink-sg100d-100k-int8.bin'),
    });
    expect(readdirSync(dir).sort()).toEqual([
      'custom.bin',
      'notes.bin',
      'wink-sg100d-100k-int8.bin',
    ]);
  });

  it('refuses a file that is not an asset or is truncated', async () => {
    const bad = join(tmp, 'bad.bin');
    writeFileSync(bad, 'not vectors at all');
    expect(() => readWordVectorAsset(bad)).toThrow(/not a Cairn word-vector file/);
    const out = join(tmp, 'b.bin');
    await buildWordVectorAsset({ sourcePath: source([['tea', [1, 2, 3]]]), outPath: out });
    writeFileSync(bad, readFileSync(out).subarray(0, -1));
    expect(() => readWordVectorAsset(bad)).toThrow(/size does not match/);
  });

  it('uses an existing asset, else builds one where it may write', async () => {
    const existing = join(tmp, 'existing.bin');
    await buildWordVectorAsset({ sourcePath: source([['tea', [1, 0, 0]]]), outPath: existing });
    const buildPath = join(tmp, 'cache', 'built.bin');
    const src = source([['coffee', [0, 1, 0]]]);
    expect(
      await ensureWordVectorAsset({ candidates: [existing], buildPath, sourcePath: src }),
    ).toBe(existing);
    expect(
      await ensureWordVectorAsset({
        candidates: [join(tmp, 'missing.bin')],
        buildPath,
        sourcePath: src,
      }),
    ).toBe(buildPath);
    expect(readWordVectorAsset(buildPath).words).toEqual(['coffee']);
    await expect(
      ensureWordVectorAsset({
        candidates: [],
        buildPath: join(tmp, 'x', 'y.bin'),
        sourcePath: null,
      }),
    ).rejects.toThrow(/not installed/);
  });

  it('the shipped asset is the head of the installed package', async () => {
    const shipped = readWordVectorAsset(await ensureTestAsset());
    const head = join(tmp, 'head.bin');
    await buildWordVectorAsset({
      sourcePath: winkVectorsSourcePath()!,
      outPath: head,
      maxWords: 300,
    });
    const part = readWordVectorAsset(head);
    expect(part.words).toEqual(shipped.words.slice(0, 300));
    expect(part.codes).toEqual(shipped.codes.subarray(0, 300 * shipped.dims));
    expect(shipped.words.slice(0, 5)).toEqual(['the', 'of', 'to', 'and', 'in']);
  });
});
