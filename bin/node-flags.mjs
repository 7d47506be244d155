// The Node flags every `cairn serve` process runs with: bin/cairn.mjs, `npm run serve` /
// `npm start` (package.json) and the benches that start one (bench/serve.ts), so a bench
// measures the process a user runs.
//
// --max-semi-space-size=16: V8 sizes the young generation from the machine's memory (two
// 64 MB semi-spaces on a 24 GB machine), grows it to that under a steady request load and
// never gives it back, so a server that had served 50 clients for ten seconds stayed at
// ~420 MB resident when idle, ~100 MB of it an empty young generation. At 16 MB the same
// load costs the same CPU per request (`npm run bench -- memory-throughput`). The size can
// only be set when the process starts (v8.setFlagsFromString is too late for it).
export const NODE_FLAGS = ['--disable-warning=ExperimentalWarning', '--max-semi-space-size=16'];
