// Electron build: main (starts the engine), preload (sandboxed: CommonJS, one file) and
// the renderer (same sources as the web build). Native modules stay external and are
// unpacked from the asar by electron-builder (electron-builder.yml).
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { cspDevRelax } from './vite.web.config.ts';

/** Loaded at run time from node_modules (native code or large, lazily loaded). */
const NATIVE_EXTERNALS = [
  'better-sqlite3-multiple-ciphers',
  '@napi-rs/keyring',
  'koffi',
  'onnxruntime-node',
  '@huggingface/transformers',
  'sharp',
];

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: { include: NATIVE_EXTERNALS },
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/main/index.ts'),
          // Loaded by the transcript writer as a worker thread (store/transcript-writer.ts).
          'transcript-writer-worker': resolve(
            import.meta.dirname,
            'src/main/engine/store/transcript-writer-worker.ts',
          ),
          // Backups and integrity checks, likewise (store/db-maintenance.ts).
          'db-maintenance-worker': resolve(
            import.meta.dirname,
            'src/main/engine/store/db-maintenance-worker.ts',
          ),
          // The heuristic distiller's reading of a conversation (memory/digest-thread.ts).
          'digest-worker': resolve(import.meta.dirname, 'src/main/engine/memory/digest-worker.ts'),
        },
        external: NATIVE_EXTERNALS,
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot load other modules: one self-contained file per entry.
      externalizeDeps: false,
      isolatedEntries: true,
      minify: true,
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/preload/index.ts'),
          recovery: resolve(import.meta.dirname, 'src/preload/recovery.ts'),
        },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    plugins: [react(), cspDevRelax()],
    build: {
      outDir: 'out/renderer',
      minify: true,
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/renderer/index.html'),
          recovery: resolve(import.meta.dirname, 'src/renderer/recovery.html'),
        },
      },
    },
  },
});
