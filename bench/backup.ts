// /health latency while a large database is backed up (issue 10, item 8: target < 50 ms on a
// 300 MB database; the copy used to run on the request thread and stalled /health for 3.2 s).
// Cairn runs as in production (`cairn serve` in its own process, real encrypted database);
// a client process downloads GET /memory/backup while this one asks for /health every few ms
// on a kept-alive connection, split into the copy (until the download's headers) and the
// download. The same is measured with no backup running (baseline) and during the integrity
// check that runs after start (also on the maintenance thread; that window also holds the
// server's own start-up work on its main thread, e.g. loading the tokenizer).
//
// The database is filled with rows of random bytes (test/helpers/fill-database.ts): a copy
// reads and writes pages whatever they hold, and random bytes make the file the size asked.
//
//   npm run bench -- backup            BENCH_BACKUP_MB=300 by default
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/main/engine/store/open.ts';
import { fillDatabase } from '../test/helpers/fill-database.ts';
import { startServeChild } from '../test/helpers/serve-child.ts';
import { formatSteal, stealMeter } from './cpu-steal.ts';
import { processCpuMs, threadCpuMs } from './process-cpu.ts';

type Print = (line: string) => void;

const MB = 1024 * 1024;
/** Pause between two /health requests of the sampling client. */
const SAMPLE_GAP_MS = 5;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  return `${s.length} requests: p50 ${ms(percentile(s, 50))}, p99 ${ms(percentile(s, 99))}, max ${ms(s[s.length - 1] ?? NaN)}`;
}

/** GET on a kept-alive connection; resolves with the time to the whole answer and its body. */
function timedGet(
  agent: Agent,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ ms: number; status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(url, { agent, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () =>
        resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, body }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

interface Download {
  /** ms until the headers (the copy is complete), and until the last byte. */
  headersMs: number;
  totalMs: number;
  bytes: number;
}

/**
 * The download runs in a process of its own: reading 300 MB in this one would delay the
 * /health answers being timed here, and that delay is the client's, not Cairn's.
 */
function downloadBackup(url: string, token: string, onHeaders: () => void): Promise<Download> {
  const code = `
    import { request } from 'node:http';
    const started = performance.now();
    const req = request(process.env.BACKUP_URL, { headers: { authorization: 'Bearer ' + process.env.BACKUP_TOKEN } }, (res) => {
      console.log('headers ' + res.statusCode + ' ' + (performance.now() - started));
      let bytes = 0;
      res.on('data', (c) => (bytes += c.length));
      res.on('end', () => console.log('done ' + bytes + ' ' + (performance.now() - started)));
    });
    req.on('error', (err) => { console.error(err.message); process.exit(1); });
    req.end();
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    env: { ...process.env, BACKUP_URL: `${url}/memory/backup`, BACKUP_TOKEN: token },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let headersMs = NaN;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      for (;;) {
        const nl = out.indexOf('\n');
        if (nl < 0) break;
        const [kind, a, b] = out.slice(0, nl).split(' ');
        out = out.slice(nl + 1);
        if (kind === 'headers') {
          if (a !== '200') reject(new Error(`backup answered ${a}`));
          headersMs = Number(b);
          onHeaders();
        } else if (kind === 'done') {
          resolve({ headersMs, totalMs: Number(b), bytes: Number(a) });
        }
      }
    });
    child.once('exit', (c) => reject(new Error(`the downloading process exited (${c})`)));
  });
}

export async function runBackupBench(print: Print): Promise<void> {
  const sizeMb = Number(process.env.BENCH_BACKUP_MB ?? 300);
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-backup-'));
  const dbKey = randomBytes(32).toString('hex');
  const token = 'bench-' + randomBytes(8).toString('hex');
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    let t = performance.now();
    const path = join(dataDir, 'memory.sqlite');
    const db = openDatabase({ path, key: Buffer.from(dbKey, 'hex') });
    try {
      fillDatabase(db, sizeMb * MB);
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
    const fileMb = statSync(path).size / MB;
    print(
      `  database: ${fileMb.toFixed(0)} MB (filled in ${((performance.now() - t) / 1000).toFixed(1)} s)`,
    );

    const { child, url } = await startServeChild({ dataDir, dbKey, token });
    try {
      // The integrity check starts with the server: /health during it, until it is done.
      t = performance.now();
      let check = '';
      const steal0 = stealMeter();
      const checkSamples: number[] = [];
      let slowest = { ms: 0, at: 0 };
      for (;;) {
        const r = await timedGet(agent, `${url}/health`);
        checkSamples.push(r.ms);
        if (r.ms > slowest.ms) slowest = { ms: r.ms, at: performance.now() - t };
        check = (JSON.parse(r.body) as { integrityCheck: string }).integrityCheck;
        if (check !== 'pending' && check !== 'running') break;
        await new Promise((res) => setTimeout(res, SAMPLE_GAP_MS));
      }
      print(
        `  /health during the start-up integrity check (${check}, ${((performance.now() - t) / 1000).toFixed(1)} s): ${summary(checkSamples)}${formatSteal(steal0())}`,
      );
      // The server's own start-up work (loading the tokenizer, the word vectors) runs on its
      // main thread in this window too: say when the slowest answer came.
      print(`    slowest answered ${slowest.at.toFixed(0)} ms after the server said it listens`);

      // Baseline: nothing else running.
      const baseline: number[] = [];
      const steal1 = stealMeter();
      for (let i = 0; i < 300; i++) {
        baseline.push((await timedGet(agent, `${url}/health`)).ms);
        await new Promise((res) => setTimeout(res, SAMPLE_GAP_MS));
      }
      print(`  /health, no backup: ${summary(baseline)}${formatSteal(steal1())}`);

      // During a backup: the copy (until the headers), then the download.
      // Set by the download's callbacks (an object: a local would stay narrowed to 'copy').
      const backup = { phase: 'copy' as 'copy' | 'download' | 'done' };
      const copySamples: number[] = [];
      const downloadSamples: number[] = [];
      const steal2 = stealMeter();
      // CPU time of the server's main thread (the one serving requests; its id is the pid)
      // and of the whole process, at the start, when the copy is done, and at the end.
      const cpu = () => ({
        main: threadCpuMs(child.pid, child.pid),
        all: processCpuMs(child.pid),
        at: performance.now(),
      });
      const marks = [cpu()];
      const download = downloadBackup(url, token, () => {
        marks.push(cpu());
        backup.phase = 'download';
      }).finally(() => {
        marks.push(cpu());
        backup.phase = 'done';
      });
      while (backup.phase !== 'done') {
        const during = backup.phase;
        const r = await timedGet(agent, `${url}/health`);
        if (r.status !== 200) throw new Error(`/health answered ${r.status}`);
        (during === 'copy' ? copySamples : downloadSamples).push(r.ms);
        await new Promise((res) => setTimeout(res, SAMPLE_GAP_MS));
      }
      const d = await download;
      const steal = formatSteal(steal2());
      print(
        `  backup: ${(d.bytes / MB).toFixed(0)} MB, copy ${(d.headersMs / 1000).toFixed(2)} s, download done at ${(d.totalMs / 1000).toFixed(2)} s${steal}`,
      );
      const busy = (from: number, to: number, kind: 'main' | 'all') => {
        const a = marks[from]![kind];
        const b = marks[to]![kind];
        const wall = marks[to]!.at - marks[from]!.at;
        return a === null || b === null
          ? '?'
          : `${(b - a).toFixed(0)} ms (${((100 * (b - a)) / wall).toFixed(0)}% of ${wall.toFixed(0)} ms)`;
      };
      print(
        `  /health while the copy is written: ${summary(copySamples)}; server CPU: main thread ${busy(0, 1, 'main')}, all threads ${busy(0, 1, 'all')}`,
      );
      print(
        `  /health while it is downloaded:    ${summary(downloadSamples)}; server CPU: main thread ${busy(1, 2, 'main')}, all threads ${busy(1, 2, 'all')}`,
      );
      const worst = Math.max(...copySamples, ...downloadSamples);
      print(
        `  target: /health < 50 ms during a backup: ${worst < 50 ? 'met' : 'NOT met'} (worst ${worst.toFixed(1)} ms)`,
      );
    } finally {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      await exited;
    }
  } finally {
    agent.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
