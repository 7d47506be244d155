// The benchmarks' measuring client: node:http over one kept-alive connection per server.
// fetch() was used first; its garbage (web streams, a FinalizationRegistry per response) made
// the measuring process pause 12-24 ms for a young-generation GC about twice a second, and a
// pause lands on whichever request is being timed: more often on the longer, proxied one, so
// the client's own pauses were counted as latency added by Cairn.
import { Agent, request as httpRequest } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

export interface Timed {
  /** ms until the whole answer (or, with `firstChunk`, its first bytes) arrived. */
  ms: number;
  status: number;
  text: string;
}

export function timedPost(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { firstChunk?: boolean } = {},
): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let first = -1;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (first < 0 && chunk.length > 0) first = performance.now() - started;
          text += chunk;
        });
        res.on('end', () => {
          const ms = options.firstChunk ? first : performance.now() - started;
          resolve({ ms, status: res.statusCode ?? 0, text });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Closes the kept-alive connections (else the process waits for their timeout). */
export function closeClient(): void {
  agent.destroy();
}
