// Waiting on the server's own reports instead of sleeping: the benches poll the management
// API until the state they need is reached, and fail loudly when it never is.
import type { EmbedderStateDto } from '../src/shared/api.ts';

/** Polls `check` every 50 ms until it returns null; otherwise its text says what is missing. */
export async function pollUntil(
  check: () => Promise<string | null>,
  timeoutMs: number,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const missing = await check();
    if (missing === null) return;
    if (performance.now() > deadline)
      throw new Error(`gave up after ${(timeoutMs / 1000).toFixed(0)} s: ${missing}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const UNSETTLED = new Set(['idle', 'downloading', 'loading']);

/**
 * Waits until neither the sentence model nor the word vectors are still loading (GET /health),
 * so that no figure depends on how fast this machine loads them.
 */
export function waitForEmbedders(
  getHealth: () => Promise<{ embedder: EmbedderStateDto }>,
): Promise<void> {
  return pollUntil(async () => {
    const { embedder } = await getHealth();
    const states = [embedder.status, embedder.wordVectors?.status].filter((x) => x !== undefined);
    return states.some((s) => UNSETTLED.has(s))
      ? `the embedders are still loading: ${JSON.stringify(embedder)}`
      : null;
  }, 60_000);
}
