// The CLI commands that talk to a RUNNING Cairn over HTTP (`cairn mcp`, `cairn export`):
// where it is and how to authenticate, from flags or the environment, and the export's one
// request (GET /memory/export). They never open the database themselves, so they work
// while the desktop app or `cairn serve` owns it, and need no database key.
import { ErrorCode } from '../shared/errors.ts';
import { MemoryExport } from '../shared/memory-export.ts';
import { displayUrl, httpUrlProblem } from '../shared/urls.ts';
import { parseFlags, UsageError } from './cli-flags.ts';
import { CairnError } from './engine/errors.ts';

export const DEFAULT_CAIRN_URL = 'http://127.0.0.1:1337';

export interface ClientOptions {
  url: string;
  token: string;
  agents: string[];
  out: string | null;
}

/**
 * --url / CAIRN_URL (default http://127.0.0.1:1337), --token / CAIRN_TOKEN (required: the
 * access token `cairn serve` printed, or `cairn token`), --agent (repeatable), --out.
 */
export function readClientOptions(argv: string[], env: NodeJS.ProcessEnv): ClientOptions {
  const values = parseFlags(argv, {
    url: { type: 'string' },
    token: { type: 'string' },
    agent: { type: 'string', multiple: true },
    out: { type: 'string', short: 'o' },
  });
  const url = (values.url ?? (env.CAIRN_URL?.trim() || DEFAULT_CAIRN_URL)).replace(/\/+$/, '');
  const problem = httpUrlProblem(url);
  if (problem !== null) {
    throw new UsageError(`${values.url ? '--url' : 'CAIRN_URL'}: ${problem}`);
  }
  const token = values.token ?? (env.CAIRN_TOKEN?.trim() || '');
  if (token === '') {
    throw new UsageError(
      'The access token is missing: pass --token or set CAIRN_TOKEN (`cairn token` prints it).',
    );
  }
  const agents = values.agent ?? [];
  const agentProblem = agents.find((a) => a.trim() === '' || a.length > 200);
  if (agentProblem !== undefined) {
    throw new UsageError('--agent must be 1 to 200 characters.');
  }
  return { url, token, agents, out: values.out ?? null };
}

/**
 * `GET /memory/export` of the running Cairn: the JSON text of the export of these agents (all
 * when none), checked against the shared format before it is written anywhere.
 */
export async function fetchMemoryExport(
  url: string,
  token: string,
  agentIds: readonly string[],
): Promise<{ text: string; agents: number }> {
  const target = new URL('/memory/export', url + '/');
  for (const id of agentIds) target.searchParams.append('agent_id', id);
  let res: Response;
  try {
    res = await fetch(target, { headers: { authorization: `Bearer ${token}` } });
  } catch (err) {
    throw new CairnError(
      ErrorCode.UpstreamUnavailable,
      `Cannot reach Cairn at ${displayUrl(url) ?? 'its URL'} (${(err as Error).message}). Is it running?`,
    );
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: reported below
  }
  if (!res.ok) {
    const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
    throw new CairnError(
      res.status === 401 ? ErrorCode.Unauthorized : ErrorCode.UpstreamError,
      `Cairn answered ${res.status} for /memory/export: ${typeof message === 'string' ? message : 'no details'}`,
    );
  }
  const parsed = MemoryExport.safeParse(body);
  if (!parsed.success) {
    throw new CairnError(
      ErrorCode.UpstreamError,
      'Cairn sent an unexpected answer for /memory/export.',
    );
  }
  return { text, agents: parsed.data.agents.length };
}
