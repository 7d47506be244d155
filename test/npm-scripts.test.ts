// The README's run command is `npm start -- --upstream <url>`: npm appends everything after
// `--` to the end of the `start` script. Those options must reach the CLI, not a nested
// `npm run` (which would take `--upstream` as one of its own config flags and hand the URL
// to the CLI as a stray positional argument).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const scripts = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

/** Runs the part of an npm script that receives the appended arguments, as npm would. */
function runTail(
  script: string,
  args: string,
  env: Record<string, string> = {},
): { status: number | null; out: string } {
  // npm runs `<script> <args>` in a shell; the appended args belong to the last command of an
  // `a && b` chain. Skipping the earlier commands (the web build) keeps the test fast.
  const last = script.split('&&').at(-1)!.trim();
  const res = spawnSync('sh', ['-c', `${last} ${args}`], {
    cwd: root,
    encoding: 'utf8',
    timeout: 20_000,
    env: {
      ...process.env,
      PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`,
      ...env,
    },
  });
  return { status: res.status, out: `${res.stdout}\n${res.stderr}` };
}

describe('npm scripts', () => {
  it('`npm start -- --upstream <url> --help` passes the options through to `cairn serve`', () => {
    const { status, out } = runTail(scripts.start!, '--upstream http://127.0.0.1:9/v1 --help');
    expect(out).not.toContain('Unexpected argument');
    expect(out).toContain('cairn serve [options]');
    expect(status).toBe(0);
  });

  it('`npm start -- --port <bad>` reaches the CLI and is refused by it', () => {
    const { status, out } = runTail(scripts.start!, '--port not-a-port');
    expect(out).toContain('--port must be a port number');
    expect(status).not.toBe(0);
  });

  it('`--help` keeps the environment variables in one column, whatever the data folder', () => {
    const { out } = runTail(scripts.serve!, '--help', {
      XDG_DATA_HOME: '/home/someone/with/a/rather/long/data/home',
    });
    const columns = new Set(
      out
        .split('\n')
        .filter((l) => /^ {2}-/.test(l) && l.includes(' env CAIRN_'))
        .map((l) => l.indexOf(' env CAIRN_')),
    );
    expect(columns.size).toBe(1);
  });

  it('`npm run serve -- --help` prints the options', () => {
    const { status, out } = runTail(scripts.serve!, '--help');
    expect(out).toContain('CAIRN_DB_KEY');
    expect(status).toBe(0);
  });
});
