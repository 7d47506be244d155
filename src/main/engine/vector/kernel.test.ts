import { describe, expect, it } from 'vitest';
import { compileKernel } from './kernel-compile.ts';
import { KERNEL_WASM_BASE64 } from './kernel-wasm.ts';

// The few WebAssembly APIs used here (the Node typings do not declare the global).
interface WasmMemory {
  buffer: ArrayBuffer;
}
interface WasmApi {
  Memory: new (d: { initial: number }) => WasmMemory;
  instantiate(
    bytes: Uint8Array,
    imports: object,
  ): Promise<{ instance: { exports: Record<string, unknown> } }>;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

describe('the vector kernel', () => {
  it('is the compiled form of kernel.wat (run `npm run kernel` after editing it)', async () => {
    const compiled = await compileKernel();
    expect(Buffer.from(compiled).toString('base64')).toBe(KERNEL_WASM_BASE64);
  });

  it('computes int8 × int16 dot products per row', async () => {
    const memory = new wasm.Memory({ initial: 1 });
    const instance = await wasm.instantiate(Buffer.from(KERNEL_WASM_BASE64, 'base64'), {
      env: { mem: memory },
    });
    const scores = instance.instance.exports.scores as (
      mat: number,
      q: number,
      out: number,
      n: number,
      stride: number,
    ) => void;
    const stride = 64;
    const rows = 3;
    const mat = new Int8Array(memory.buffer, 0, rows * stride);
    const q = new Int16Array(memory.buffer, 1024, stride);
    const out = new Int32Array(memory.buffer, 4096, rows);
    for (let j = 0; j < stride; j++) {
      q[j] = j % 7 === 0 ? -300 : j * 3;
      mat[j] = (j % 5) - 2;
      mat[stride + j] = j % 2 === 0 ? 127 : -128;
      mat[2 * stride + j] = 0;
    }
    scores(0, 1024, 4096, rows, stride);
    for (let r = 0; r < rows; r++) {
      let want = 0;
      for (let j = 0; j < stride; j++) want += (mat[r * stride + j] as number) * (q[j] as number);
      expect(out[r]).toBe(want);
    }
  });
});
