// Compiles kernel.wat with wabt (a devDependency: used by `npm run kernel` and the kernel's
// test, never at run time; the engine loads the compiled bytes from kernel-wasm.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const KERNEL_SOURCE = join(import.meta.dirname, 'kernel.wat');

export async function compileKernel(): Promise<Uint8Array> {
  const { default: init } = await import('wabt');
  const wabt = await init();
  const module = wabt.parseWat('kernel.wat', readFileSync(KERNEL_SOURCE, 'utf8'), { simd: true });
  try {
    module.validate();
    return new Uint8Array(
      module.toBinary({ canonicalize_lebs: true, write_debug_names: false }).buffer,
    );
  } finally {
    module.destroy();
  }
}
