#!/usr/bin/env node
// The `cairn` command (package.json "bin"): runs src/main/cli.ts on the project's Node 24
// (the `node` devDependency, node_modules/.bin/node), which runs TypeScript directly; falls
// back to the Node running this launcher when that binary is absent. stdin/stdout/stderr are
// handed to the child as they are, so `cairn mcp` speaks JSON-RPC on the caller's pipes.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from './node-flags.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundled = join(
  root,
  'node_modules',
  '.bin',
  process.platform === 'win32' ? 'node.cmd' : 'node',
);
const node = existsSync(bundled) ? bundled : process.execPath;

const child = spawn(
  node,
  [...NODE_FLAGS, join(root, 'src', 'main', 'cli.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit', shell: process.platform === 'win32' && node === bundled },
);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('error', (err) => {
  process.stderr.write(`cairn: cannot start Node (${node}): ${err.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});
