// Worker-thread side of digest-thread.ts: the heuristic distiller's reading of a conversation
// (wink-nlp tagging, the extraction rules, the summary), off the thread serving requests. It
// holds no database connection: the conversation comes in, the digest goes back, and the
// owner stores it. The word vectors are read from the asset file the owner names (its own
// copy, kept while the worker lives); jobs run one at a time, in the order they arrive.
import { parentPort } from 'node:worker_threads';
import type { Digest } from '../../../shared/digest.ts';
import { jobFailure, type JobFailure, yieldToRequestThread } from '../threads.ts';
import { loadWordVectors, type WordVectors } from '../vector/word-vectors.ts';
import { heuristicDigest, type HeuristicMessage } from './heuristic-distiller.ts';

export interface DigestJob {
  id: number;
  messages: HeuristicMessage[];
  conversationAt: number;
  /** The word-vector asset the owner reads with (WordVectors.sourcePath), or null for none. */
  wordVectorsPath: string | null;
}
export type DigestResponse = { id: number; ok: true; digest: Digest } | JobFailure;

yieldToRequestThread();
const port = parentPort!;
let words: WordVectors | null = null;

function wordsAt(path: string | null): WordVectors | null {
  if (path === null) return null;
  if (words?.sourcePath !== path) words = loadWordVectors(path);
  return words;
}

port.on('message', (job: DigestJob) => {
  let reply: DigestResponse;
  try {
    const digest = heuristicDigest(job.messages, {
      conversationAt: job.conversationAt,
      words: wordsAt(job.wordVectorsPath),
    });
    reply = { id: job.id, ok: true, digest };
  } catch (err) {
    reply = jobFailure(job.id, err);
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });
