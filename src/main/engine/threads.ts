// What Cairn's worker threads (store/transcript-writer-worker.ts, store/db-maintenance-worker.ts,
// memory/digest-worker.ts) do alike: find their entry file, run below the priority of the
// thread serving requests, and answer a job that failed with its message.
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

/** A job's answer when it threw: the error's message and code (e.g. SQLITE_FULL). */
export interface JobFailure {
  id: number;
  ok: false;
  message: string;
  code: string | null;
}

export function jobFailure(id: number, err: unknown): JobFailure {
  const e = err as { message?: string; code?: string };
  return { id, ok: false, message: e.message ?? String(err), code: e.code ?? null };
}

/**
 * Lowers this thread's priority, so background work yields the CPU to the thread serving
 * requests when both want it. On Linux the nice value is per thread; elsewhere it would apply
 * to the whole process, so it is skipped there.
 */
export function yieldToRequestThread(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(5);
  } catch {
    // not permitted: keep the default priority
  }
}

/**
 * A worker's entry file `name`, next to the module at `base` (its import.meta.url): the
 * TypeScript source under plain Node (type stripping), or the bundle's `name.js` beside the
 * Electron main bundle (electron.vite.config.ts builds each worker as its own entry). null
 * when neither exists.
 */
export function workerEntryUrl(name: string, base: string): URL | null {
  for (const file of [`./${name}.ts`, `./${name}.js`]) {
    const url = new URL(file, base);
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return url;
  }
  return null;
}
