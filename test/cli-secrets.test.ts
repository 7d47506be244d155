// `cairn serve` prints no secret (issue 10, item 4). The real CLI runs as a child process with
// every secret it can be given (an upstream URL with user, password and ?api_key=, the
// upstream API key, CAIRN_TOKEN, CAIRN_DB_KEY, a provider API key sent to PUT /settings);
// everything it writes to stdout and stderr through start, requests (failing ones included)
// and shutdown is searched for each of them. The access token Cairn generates is printed
// once, on the start that created it, and `cairn token` prints it on request.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { formatRecoveryKey } from '../src/main/engine/secrets.ts';
import { startScriptedUpstream } from './helpers/scripted-upstream.ts';

const root = resolve(import.meta.dirname, '..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-cli-secrets-'));
  dirs.push(dir);
  return dir;
}

interface CliRun {
  child: ChildProcess;
  /** stdout and stderr as received so far. */
  output: () => { stdout: string; stderr: string };
  exited: Promise<number | null>;
}

/**
 * Runs `node src/main/cli.ts <args>` with only the given environment (plus PATH and HOME),
 * keeping every byte it writes until it exits. serve-child.ts stops reading at the start-up
 * line; this test needs the rest.
 */
function runCli(args: string[], env: Record<string, string>): CliRun {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', 'src/main/cli.ts', ...args],
    {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, output: () => ({ stdout, stderr }), exited };
}

/** Starts `cairn serve` on a free port and resolves with its URL once it listens. */
async function serve(
  dataDir: string,
  env: Record<string, string>,
): Promise<CliRun & { url: string }> {
  const run = runCli(
    ['serve', '--port', '0', '--data-dir', dataDir, '--no-keychain', '--log-level', 'debug'],
    { CAIRN_EMBEDDING_BACKEND: 'none', ...env },
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up line: ${all(run)}`)), 20_000);
    const check = () => {
      // The access token line is the last one always printed: the start-up block is complete.
      const m = /listening on (http:\/\/\S+)[^]*\n {2}access token[^\n]*\n/.exec(
        run.output().stdout,
      );
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    };
    run.child.stdout!.on('data', check);
    void run.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${all(run)}`));
    });
  });
  return { ...run, url };
}

async function stop(run: CliRun): Promise<number | null> {
  run.child.kill('SIGINT');
  return run.exited;
}

/** The error a call that must fail was rejected with. */
function failure(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  return call.then(
    () => {
      throw new Error('the call succeeded');
    },
    (err: unknown) => err as InstanceType<typeof OpenAI.APIError>,
  );
}

const all = (run: CliRun) => run.output().stdout + run.output().stderr;
const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

describe('cairn serve prints no secret', () => {
  it('keeps URL credentials, keys and a fixed token out of stdout and the log, through failures', async () => {
    const upstream = await startScriptedUpstream();
    const secrets = {
      user: 'u5er' + randomBytes(4).toString('hex'),
      password: 'pw' + randomBytes(8).toString('hex'),
      queryKey: 'qk' + randomBytes(8).toString('hex'),
      upstreamApiKey: 'sk-up-' + randomBytes(8).toString('hex'),
      token: 'fixed-' + randomBytes(12).toString('hex'),
      dbKey: randomBytes(32).toString('hex'),
      providerKey: 'sk-prov-' + randomBytes(8).toString('hex'),
    };
    const upstreamUrl = upstream.url.replace(
      'http://',
      `http://${secrets.user}:${secrets.password}@`,
    );
    const run = await serve(tempDir(), {
      CAIRN_UPSTREAM_URL: `${upstreamUrl}?api_key=${secrets.queryKey}`,
      CAIRN_UPSTREAM_API_KEY: secrets.upstreamApiKey,
      CAIRN_TOKEN: secrets.token,
      CAIRN_DB_KEY: secrets.dbKey,
    });
    const bodies: string[] = [];
    try {
      const { stdout } = run.output();
      expect(stdout).toContain(`  upstream        : ${upstream.url}\n`);
      expect(stdout).toContain('  access token    : the one in CAIRN_TOKEN\n');

      const health = await fetch(`${run.url}/health`);
      const healthText = await health.text();
      expect(health.status, healthText).toBe(200);
      bodies.push(healthText);
      expect(JSON.parse(healthText).upstream, healthText).toEqual({
        configured: true,
        url: upstream.url,
      });

      const client = new OpenAI({ baseURL: `${run.url}/v1`, apiKey: secrets.token, maxRetries: 0 });
      const ask = () =>
        client.chat.completions.create(
          { model: 'scripted-model', messages: [{ role: 'user', content: 'Hello there' }] },
          { headers: { 'X-Osaurus-Agent-Id': 'cli-secrets' } },
        );
      // Forwarded below the base URL's path, with its credentials (the query stays the query).
      expect((await ask()).choices[0]!.message.content).toBe('ok');
      expect(upstream.chatRequests().at(-1)!.path).toBe('/v1/chat/completions');

      upstream.enqueue({ kind: 'error', status: 500, message: 'provider exploded' });
      const failed = await failure(ask());
      expect(failed.status).toBe(502);
      bodies.push(JSON.stringify(failed.error));

      const settings = await fetch(`${run.url}/settings`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${secrets.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          providers: [
            {
              id: 'p',
              name: 'P',
              baseUrl: `http://${secrets.user}:${secrets.password}@127.0.0.1:9/v1`,
              apiKey: secrets.providerKey,
            },
          ],
        }),
      });
      expect(settings.status).toBe(200);
      const wrongToken = await fetch(`${run.url}/agents`, {
        headers: { authorization: `Bearer not-the-${secrets.token}` },
      });
      expect(wrongToken.status).toBe(401);

      // The provider is gone: the network error names where it tried, without credentials.
      await upstream.close();
      const refused = await failure(ask());
      expect(refused.status).toBe(502);
      expect(refused.message).toContain(`Cannot reach the upstream provider at ${upstream.url}`);
      bodies.push(JSON.stringify(refused.error));
    } finally {
      expect(await stop(run)).toBe(0);
      await upstream.close().catch(() => {});
    }

    const output = all(run);
    // The debug log was written: this checks a log, not silence.
    expect(run.output().stderr).toContain('"level":"debug"');
    const recoveryKey = formatRecoveryKey(Buffer.from(secrets.dbKey, 'hex'));
    const searched: [string, string][] = [...Object.entries(secrets), ['recoveryKey', recoveryKey]];
    for (const [name, secret] of searched) {
      expect(output.includes(secret), `${name} appears in the output`).toBe(false);
      for (const body of bodies) {
        expect(body.includes(secret), `${name} appears in an answer`).toBe(false);
      }
    }
  });

  it('prints a generated token once, on the first start only; `cairn token` prints it on request', async () => {
    const dataDir = tempDir();
    const env = { CAIRN_DB_KEY: randomBytes(32).toString('hex') };
    const first = await serve(dataDir, env);
    const token = /access token {4}: (\S+)/.exec(first.output().stdout)?.[1] ?? '';
    expect(token).toMatch(/^cairn-/);
    const agents = await fetch(`${first.url}/agents`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(agents.status).toBe(200);
    expect(await stop(first)).toBe(0);
    expect(occurrences(all(first), token)).toBe(1);

    const second = await serve(dataDir, env);
    expect(second.output().stdout).toContain(
      '  access token    : kept in the database (`cairn token` prints it)\n',
    );
    const again = await fetch(`${second.url}/agents`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(again.status).toBe(200);
    expect(await stop(second)).toBe(0);
    expect(all(second)).not.toContain(token);

    const asked = runCli(['token', '--data-dir', dataDir, '--no-keychain'], env);
    expect(await asked.exited).toBe(0);
    expect(asked.output().stdout).toBe(`${token}\n`);
  });

  it('`cairn token` does not create a database where there is none', async () => {
    const dataDir = tempDir();
    const run = runCli(['token', '--data-dir', dataDir, '--no-keychain'], {
      CAIRN_DB_KEY: randomBytes(32).toString('hex'),
    });
    expect(await run.exited).toBe(1);
    expect(run.output().stderr).toContain('There is no Cairn database in');
    expect(run.output().stdout).toBe('');
  });
});

describe('cairn serve refuses an upstream that is not http(s)', () => {
  it.each([
    [
      ['--upstream', 'file:///etc/passwd'],
      {},
      '--upstream must be an http:// or https:// URL (not file:)',
    ],
    [
      [],
      { CAIRN_UPSTREAM_URL: 'javascript:alert(1)' },
      'CAIRN_UPSTREAM_URL must be an http:// or https:// URL (not javascript:)',
    ],
    [
      [],
      { CAIRN_UPSTREAM_URL: 'ftp://me:s3cretpw@files.example/' },
      'CAIRN_UPSTREAM_URL must be an http:// or https:// URL (not ftp:)',
    ],
    [['--upstream', 'http://'], {}, '--upstream must be an http:// or https:// URL with a host'],
  ] as const)('%j %j: exits 2 with a clear message', async (args, env, message) => {
    const dataDir = tempDir();
    const run = runCli(['serve', '--port', '0', '--data-dir', dataDir, '--no-keychain', ...args], {
      CAIRN_DB_KEY: randomBytes(32).toString('hex'),
      ...env,
    });
    expect(await run.exited).toBe(2);
    const { stdout, stderr } = run.output();
    expect(stderr).toContain(`cairn: ${message}`);
    expect(stderr).not.toContain('s3cretpw');
    expect(stdout).not.toContain('listening');
  });
});
