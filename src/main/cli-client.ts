// The CLI commands that talk to a RUNNING Cairn over HTTP (`cairn mcp`, `cairn export`):
// where it is and how to authenticate, from flags or the environment, and a small client of
// the management API for the export. They never open the database themselves, so they work
// while the desktop app or `cairn serve` owns it, and need no database key.
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import {
  AgentsResponse,
  EpisodeListResponse,
  Identity,
  PinnedListResponse,
  TranscriptListResponse,
} from '../shared/api.ts';
import { ErrorCode } from '../shared/errors.ts';
import type { ExportSource } from '../shared/memory-export.ts';
import { displayUrl, httpUrlProblem } from '../shared/urls.ts';
import { CairnError } from './engine/errors.ts';

export const DEFAULT_CAIRN_URL = 'http://127.0.0.1:1337';

export interface ClientOptions {
  url: string;
  token: string;
  agents: string[];
  out: string | null;
}

/** A flag or environment value the user got wrong (the CLI prints it with the usage hint). */
export class ClientUsageError extends Error {}

/**
 * --url / CAIRN_URL (default http://127.0.0.1:1337), --token / CAIRN_TOKEN (required: the
 * access token `cairn serve` printed, or `cairn token`), --agent (repeatable), --out.
 */
export function readClientOptions(argv: string[], env: NodeJS.ProcessEnv): ClientOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        agent: { type: 'string', multiple: true },
        out: { type: 'string', short: 'o' },
      },
    }));
  } catch (err) {
    throw new ClientUsageError((err as Error).message);
  }
  const url = (values.url ?? (env.CAIRN_URL?.trim() || DEFAULT_CAIRN_URL)).replace(/\/+$/, '');
  const problem = httpUrlProblem(url);
  if (problem !== null) {
    throw new ClientUsageError(`${values.url ? '--url' : 'CAIRN_URL'}: ${problem}`);
  }
  const token = values.token ?? (env.CAIRN_TOKEN?.trim() || '');
  if (token === '') {
    throw new ClientUsageError(
      'The access token is missing: pass --token or set CAIRN_TOKEN (`cairn token` prints it).',
    );
  }
  const agents = values.agent ?? [];
  const agentProblem = agents.find((a) => a.trim() === '' || a.length > 200);
  if (agentProblem !== undefined) {
    throw new ClientUsageError('--agent must be 1 to 200 characters.');
  }
  return { url, token, agents, out: values.out ?? null };
}

/** A reader of Cairn's management API with the shared response schemas. */
export function createApiReader(url: string, token: string): ExportSource {
  const get = async <S extends z.ZodType>(
    schema: S,
    path: string,
    query: Record<string, string | number>,
  ): Promise<z.output<S>> => {
    const target = new URL(path, url + '/');
    for (const [k, v] of Object.entries(query)) target.searchParams.set(k, String(v));
    let res: Response;
    try {
      res = await fetch(target, { headers: { authorization: `Bearer ${token}` } });
    } catch (err) {
      throw new CairnError(
        ErrorCode.UpstreamUnavailable,
        `Cannot reach Cairn at ${displayUrl(url) ?? 'its URL'} (${(err as Error).message}). Is it running?`,
      );
    }
    const body: unknown = await res.json().catch(() => null);
    if (!res.ok) {
      const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
      throw new CairnError(
        res.status === 401 ? ErrorCode.Unauthorized : ErrorCode.UpstreamError,
        `Cairn answered ${res.status} for ${path}: ${typeof message === 'string' ? message : 'no details'}`,
      );
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new CairnError(ErrorCode.UpstreamError, `Cairn sent an unexpected answer for ${path}.`);
    }
    return parsed.data;
  };
  return {
    agents: () => get(AgentsResponse, '/agents', {}),
    getIdentity: (agentId) => get(Identity, '/memory/identity', { agent_id: agentId }),
    listPinned: (q) => get(PinnedListResponse, '/memory/pinned', q),
    listEpisodes: (q) => get(EpisodeListResponse, '/memory/episodes', q),
    listTranscript: (q) => get(TranscriptListResponse, '/memory/transcript', q),
  };
}
