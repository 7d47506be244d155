// `npm run bench`: runs every benchmark module present, one after the other, and prints one
// report. A module that fails prints its error and the run goes on.
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

type Print = (line: string) => void;

// `npm run bench -- <section>` runs the section of that name, or else every section whose name
// starts with it (`memory` → memory-latency).
const modules: { section: string; file: string; name: string; entry: string }[] = [
  { section: 'proxy', file: 'proxy.ts', name: 'proxy overhead and ingest', entry: 'runProxyBench' },
  { section: 'vector', file: 'vector.ts', name: 'vector search', entry: 'runVectorBench' },
  { section: 'locomo', file: 'locomo.ts', name: 'LoCoMo-style recall', entry: 'runLocomoBench' },
  {
    section: 'locomo-loo',
    file: 'locomo-loo.ts',
    name: 'LoCoMo leave-one-conversation-out',
    entry: 'runLocomoLoo',
  },
  {
    section: 'locomo-large',
    file: 'locomo-large.ts',
    name: 'LoCoMo recall in a ~15k-row memory',
    entry: 'runLocomoLargeBench',
  },
  {
    section: 'gate',
    file: 'gate.ts',
    name: 'relevance gate on unrelated prompts',
    entry: 'runGateBench',
  },
  {
    section: 'paraphrase',
    file: 'paraphrase.ts',
    name: 'paraphrase recall, production defaults offline',
    entry: 'runParaphraseBench',
  },
  {
    section: 'memory-latency',
    file: 'memory-latency.ts',
    name: 'memory read latency',
    entry: 'runMemoryLatencyBench',
  },
  {
    section: 'memory-throughput',
    file: 'memory-throughput.ts',
    name: 'memory path CPU and throughput',
    entry: 'runMemoryThroughputBench',
  },
  { section: 'backup', file: 'backup.ts', name: 'backup and /health', entry: 'runBackupBench' },
];

function selected(section: string, only: string[]): boolean {
  if (only.length === 0) return true;
  return only.some((o) =>
    modules.some((m) => m.section === o) ? section === o : section.startsWith(o),
  );
}

async function main(): Promise<number> {
  const print: Print = (line) => process.stdout.write(line + '\n');
  const only = process.argv.slice(2);
  print(
    `Cairn benchmarks: Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  let failures = 0;
  for (const m of modules) {
    if (!selected(m.section, only)) continue;
    const path = join(import.meta.dirname, m.file);
    print('');
    print(`== ${m.name} (bench/${m.file}) ==`);
    if (!existsSync(path)) {
      print('  (not present: skipped)');
      continue;
    }
    const started = performance.now();
    try {
      const mod = (await import(path)) as Record<string, unknown>;
      const run = mod[m.entry];
      if (typeof run !== 'function')
        throw new Error(`bench/${m.file} does not export ${m.entry}()`);
      await (run as (p: Print) => Promise<unknown>)((line) => print(line));
      print(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    } catch (err) {
      failures++;
      print(`  FAILED: ${(err as Error).stack ?? String(err)}`);
    }
  }
  print('');
  print(failures === 0 ? 'All benchmarks ran.' : `${failures} benchmark module(s) failed.`);
  return failures === 0 ? 0 : 1;
}

process.exitCode = await main();
