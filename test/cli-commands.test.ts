// The `cairn` command's subcommands as child processes (DESIGN §9, issue 13): `cairn mcp`
// through the package's bin launcher, driven by the MCP SDK's StdioClientTransport against a
// running engine; `cairn export` writing the shared export format; `cairn rekey` refused
// while Cairn runs, then re-encrypting a stopped one so that it opens with the new key only.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryExport } from '../src/shared/memory-export.ts';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';

const root = resolve(import.meta.dirname, '..');
const nodeBin = join(root, 'node_modules', '.bin', 'node');
const launcher = join(root, 'bin', 'cairn.mjs');

/** Runs `cairn <args>` through the bin launcher; resolves with its exit code and output. */
function cairn(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(nodeBin, [launcher, ...args], {
      env: { PATH: process.env.PATH!, HOME: process.env.HOME!, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

describe('cairn mcp and cairn export (talking to a running Cairn)', () => {
  let h: EngineHarness;
  let dir: string;
  beforeAll(async () => {
    h = await startEngine({ upstream: null });
    dir = mkdtempSync(join(tmpdir(), 'cairn-cli-'));
  });
  afterAll(async () => {
    await h?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('cairn mcp: an SDK stdio client lists and calls every tool; stdout is JSON-RPC only', async () => {
    const transport = new StdioClientTransport({
      command: nodeBin,
      args: [launcher, 'mcp'],
      env: { PATH: process.env.PATH!, CAIRN_URL: h.url, CAIRN_TOKEN: h.token },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const errors: Error[] = [];
    transport.onerror = (err) => errors.push(err);
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        'forget',
        'list_memories',
        'remember',
        'search_memory',
      ]);
      const text = async (name: string, args: Record<string, unknown>) => {
        const res = (await client.callTool({ name, arguments: args })) as {
          content: { text: string }[];
          isError?: boolean;
        };
        expect(res.isError, res.content[0]!.text).toBeFalsy();
        return JSON.parse(res.content[0]!.text) as Record<string, unknown>;
      };
      const fact = await text('remember', {
        agent_id: 'stdio',
        content: 'The stdio agent prefers green tea',
      });
      const found = await text('search_memory', {
        agent_id: 'stdio',
        scope: 'pinned',
        query: 'green tea',
      });
      expect(JSON.stringify(found)).toContain('green tea');
      const listed = await text('list_memories', { agent_id: 'stdio', scope: 'pinned' });
      expect(listed.total).toBe(1);
      expect(await text('forget', { agent_id: 'stdio', scope: 'pinned', id: fact.id })).toEqual({
        deleted: true,
        id: fact.id,
        trash_id: expect.any(Number),
      });
      // The running engine holds the change: the REST API sees it.
      const pinned = await h.api<{ total: number }>('GET', '/memory/pinned?agent_id=stdio');
      expect(pinned.body.total).toBe(0);
    } finally {
      await client.close();
    }
    expect(errors).toEqual([]); // any non-JSON line on stdout would be a parse error here
    expect(stderr).toContain('relaying');
    expect(stderr).not.toContain(h.token);
  });

  it('cairn mcp: a wrong token is a clear error, not a crash', async () => {
    const transport = new StdioClientTransport({
      command: nodeBin,
      args: [launcher, 'mcp', '--url', h.url, '--token', 'wrong'],
      env: { PATH: process.env.PATH! },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      await expect(client.listTools()).rejects.toThrow(/Cannot reach Cairn|401|Invalid access/);
    } finally {
      await client.close();
    }
  });

  it('cairn export writes the shared format, one agent with --agent, all without', async () => {
    for (const [agent_id, content] of [
      ['exp-a', 'Agent A likes sailing'],
      ['exp-b', 'Agent B likes chess'],
    ]) {
      expect((await h.api('POST', '/memory/pinned', { agent_id, content })).status).toBe(201);
    }
    const env = { CAIRN_URL: h.url, CAIRN_TOKEN: h.token };
    const file = join(dir, 'a.json');
    const one = await cairn(['export', '--agent', 'exp-a', '--out', file], env);
    expect(one.code, one.stderr).toBe(0);
    const doc = MemoryExport.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(doc.agents.map((a) => a.id)).toEqual(['exp-a']);
    expect(doc.agents[0]!.pinned.map((p) => p.content)).toEqual(['Agent A likes sailing']);

    const all = await cairn(['export'], env);
    expect(all.code, all.stderr).toBe(0);
    const ids = MemoryExport.parse(JSON.parse(all.stdout)).agents.map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining(['exp-a', 'exp-b']));

    const noToken = await cairn(['export', '--url', h.url], {});
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/access token is missing/);
  });
});

describe('cairn rekey', () => {
  let dataDir: string;
  const token = 'rekey-test-token';
  const env = () => ({ CAIRN_TOKEN: token, CAIRN_EMBEDDING_BACKEND: 'none' });
  const dirArgs = () => ['--data-dir', dataDir, '--no-keychain'];
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'cairn-rekey-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const serve = (): Promise<{ child: ChildProcess; url: string }> =>
    new Promise((done, fail) => {
      const child = spawn(
        nodeBin,
        [launcher, 'serve', '--port', '0', ...dirArgs(), '--log-level', 'warn'],
        {
          env: { PATH: process.env.PATH!, HOME: process.env.HOME!, ...env() },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let err = '';
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) done({ child, url: m[1]! });
      });
      child.on('exit', (code) => fail(new Error(`serve exited with ${code}: ${err}`)));
    });
  const stop = (child: ChildProcess) =>
    new Promise<void>((done) => {
      child.removeAllListeners('exit');
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });

  it('is refused while Cairn runs, then re-encrypts a stopped Cairn that reopens with the new key', async () => {
    const first = await serve();
    const add = await fetch(first.url + '/memory/pinned', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: 'keeper', content: 'The vault code is in the blue book' }),
    });
    expect(add.status).toBe(201);
    const before = await cairn(['recovery-key', ...dirArgs()], env());
    expect(before.code, before.stderr).toBe(0);

    const refused = await cairn(['rekey', ...dirArgs()], env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Cairn is running/);
    expect((await cairn(['recovery-key', ...dirArgs()], env())).stdout).toBe(before.stdout);
    await stop(first.child);

    const rotated = await cairn(['rekey', ...dirArgs()], env());
    expect(rotated.code, rotated.stderr).toBe(0);
    const after = await cairn(['recovery-key', ...dirArgs()], env());
    expect(after.stdout).not.toBe(before.stdout);
    expect(rotated.stdout).toContain(after.stdout.trim());

    // The old key no longer opens the database; the stored new one does, memories intact.
    const oldKey = await cairn(['token', '--data-dir', dataDir, '--no-keychain'], {
      CAIRN_RECOVERY_KEY: before.stdout.trim(),
    });
    expect(oldKey.code).toBe(1);
    const second = await serve();
    try {
      const res = await fetch(second.url + '/memory/pinned?agent_id=keeper', {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(JSON.stringify(await res.json())).toContain('blue book');
    } finally {
      await stop(second.child);
    }
  });
});
