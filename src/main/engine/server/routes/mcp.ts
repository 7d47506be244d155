// POST /mcp (DESIGN §9): the Model Context Protocol over Streamable HTTP, spoken by the
// official TypeScript SDK (@modelcontextprotocol/sdk). Stateless: every POST gets a fresh
// server and transport, so clients that `initialize` first and clients that call a tool
// straight away both work, and no session outlives its request. Answers are plain JSON (no
// server-initiated stream: GET answers 405, as the transport allows).
// https://modelcontextprotocol.io/specification/2025-06-18/basic/transports
//
// Tools: search_memory, remember, forget, list_memories, each scoped to one agent (its
// `agent_id` argument or the connection's X-Osaurus-Agent-Id header). They call the memory
// services the REST routes call (STYLE: a transport never calls another transport).
// Authentication, Host and Origin are checked by security.ts before this route runs.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import packageJson from '../../../../../package.json' with { type: 'json' };
import { ErrorCode } from '../../../../shared/errors.ts';
import {
  ForgetArgs,
  ListMemoriesArgs,
  MCP_SERVER_NAME,
  RememberArgs,
  SearchMemoryArgs,
  type ListMemoriesArgs as ListArgs,
} from '../../../../shared/mcp.ts';
import { CairnError, isCairnError } from '../../errors.ts';
import { forgetMemory, rememberFact } from '../../memory-edits.ts';
import type { EngineServices } from '../../services.ts';
import { listEpisodes } from '../../store/episodes.ts';
import { listPinned } from '../../store/pinned.ts';
import { listTranscript } from '../../store/transcript.ts';
import { exceedsJsonDepth } from '../json-depth.ts';
import { toEpisodeDto, toPinnedDto } from '../../memory-dto.ts';

type JsonRpcError = { jsonrpc: '2.0'; id: unknown; error: { code: number; message: string } };

const rpcError = (id: unknown, code: number, message: string): JsonRpcError => ({
  jsonrpc: '2.0',
  id,
  error: { code, message },
});

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every tool's arguments are flat (a list of tags at most): deeper ones are a mistake. */
const MAX_ARGUMENTS_DEPTH = 8;
/** The largest arguments a tool takes (a 10,000-character query) with room to spare. */
const MAX_ARGUMENTS_BYTES = 256 * 1024;

/** Why `tools/call` arguments are refused (JSON-RPC invalid params), or null. */
export function toolArgumentsProblem(args: unknown): string | null {
  if (args === undefined) return null;
  if (!isObject(args)) return 'tools/call params.arguments must be an object.';
  if (exceedsJsonDepth(args, MAX_ARGUMENTS_DEPTH)) {
    return `tools/call params.arguments nest more than ${MAX_ARGUMENTS_DEPTH} levels deep.`;
  }
  // Depth is bounded above, so serialising cannot overflow the stack.
  if (Buffer.byteLength(JSON.stringify(args)) > MAX_ARGUMENTS_BYTES) {
    return `tools/call params.arguments are larger than ${MAX_ARGUMENTS_BYTES / 1024} KiB.`;
  }
  return null;
}

/**
 * The JSON-RPC errors for `tools/call` messages whose arguments are refused before the SDK
 * sees them (the SDK's validation recurses), or null when every message may go on. In a
 * batch, one refused call refuses the batch: each message gets its own error.
 */
export function refusedToolCalls(body: unknown): JsonRpcError | JsonRpcError[] | null {
  const messages = Array.isArray(body) ? body : [body];
  const problems = messages.map((m) =>
    isObject(m) && m.method === 'tools/call' && isObject(m.params)
      ? toolArgumentsProblem(m.params.arguments)
      : null,
  );
  if (problems.every((p) => p === null)) return null;
  const errors = messages.map((m, i) =>
    rpcError(
      isObject(m) ? (m.id ?? null) : null,
      -32602,
      problems[i] ?? 'Refused with the batch: another call in it had invalid arguments.',
    ),
  );
  return Array.isArray(body) ? errors : errors[0]!;
}

/**
 * A body refused before the route ran (not JSON, too deep, too large) as the JSON-RPC error
 * an MCP client reads, with the HTTP status it had; null for other errors (authentication,
 * Host, Origin), which keep the API's own answer. The id is unknown: the body was not read.
 */
function jsonRpcBodyError(
  err: FastifyError | Error,
): { status: number; reply: JsonRpcError } | null {
  const code = (err as { code?: unknown }).code;
  if (
    code === ErrorCode.InvalidJson ||
    code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
  ) {
    return { status: 400, reply: rpcError(null, -32700, `Parse error: ${err.message}`) };
  }
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { status: 413, reply: rpcError(null, -32600, 'The request body is too large.') };
  }
  if (isCairnError(err) && err.code === ErrorCode.BadRequest && err.status === 400) {
    return { status: 400, reply: rpcError(null, -32600, `Invalid Request: ${err.message}`) };
  }
  return null;
}

/** The agent a call acts for: its argument, else the connection's header; never both apart. */
export function resolveAgent(argument: string | undefined, header: string | null): string {
  if (argument !== undefined && header !== null && argument !== header) {
    throw new CairnError(
      ErrorCode.ValidationFailed,
      'agent_id differs from the X-Osaurus-Agent-Id of this connection.',
    );
  }
  const agentId = argument ?? header;
  if (agentId === null) {
    throw new CairnError(
      ErrorCode.ValidationFailed,
      'agent_id is required (or connect with the X-Osaurus-Agent-Id header).',
    );
  }
  return agentId;
}

const jsonResult = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  isError: false,
});

/**
 * Runs a tool: expected failures (CairnError: not found, invalid) become a tool error with
 * their message, which the model can act on; anything else is a bug, logged, and answered
 * without its details.
 */
async function runTool(
  services: EngineServices,
  name: string,
  body: () => Promise<unknown> | unknown,
): Promise<CallToolResult> {
  try {
    return jsonResult(await body());
  } catch (err) {
    if (isCairnError(err)) return { content: [{ type: 'text', text: err.message }], isError: true };
    services.logger.child('mcp').error('tool failed', { tool: name, err });
    return {
      content: [{ type: 'text', text: 'Internal error (see the Cairn log).' }],
      isError: true,
    };
  }
}

function listMemories(services: EngineServices, agentId: string, args: ListArgs) {
  const page = { agentId, limit: args.limit ?? 50, offset: args.offset ?? 0 };
  if (args.scope === 'pinned') {
    const { items, total } = listPinned(services.db, {
      ...page,
      status: 'active',
      sort: 'salience',
    });
    return { items: items.map(toPinnedDto), total };
  }
  if (args.scope === 'episodes') {
    const { items, total } = listEpisodes(services.db, page);
    return { items: items.map(toEpisodeDto), total };
  }
  return listTranscript(services.db, { ...page, order: 'desc' });
}

/** The MCP server of one request: Cairn's memory tools, scoped by `headerAgent` if given. */
export function createMemoryMcpServer(
  services: EngineServices,
  headerAgent: string | null,
): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: packageJson.version },
    { capabilities: { tools: {} } },
  );
  const agentOf = (argument: string | undefined) => resolveAgent(argument, headerAgent);

  server.registerTool(
    'search_memory',
    {
      description:
        "Search the agent's long-term memory: pinned facts, episodes (summaries of past " +
        'conversations) or the raw transcript.',
      inputSchema: SearchMemoryArgs,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(services, 'search_memory', async () => ({
        results: await services.memory.search({ ...args, agent_id: agentOf(args.agent_id) }),
      })),
  );
  server.registerTool(
    'remember',
    {
      description: "Store a durable fact in the agent's memory (a pinned fact).",
      inputSchema: RememberArgs,
    },
    (args) =>
      runTool(services, 'remember', () =>
        toPinnedDto(
          rememberFact(services, {
            agentId: agentOf(args.agent_id),
            content: args.content,
            tags: args.tags,
            salience: args.salience,
            pinnedByUser: false,
          }),
        ),
      ),
  );
  server.registerTool(
    'forget',
    {
      description:
        'Delete one memory by scope and id (as search_memory or list_memories returned it). ' +
        'It goes to the trash, where the user can restore it.',
      inputSchema: ForgetArgs,
      annotations: { destructiveHint: true },
    },
    (args) =>
      runTool(services, 'forget', async () => {
        const { id, trashId } = await forgetMemory(
          services,
          agentOf(args.agent_id),
          args.scope,
          args.id,
        );
        return { deleted: true, id, trash_id: trashId };
      }),
  );
  server.registerTool(
    'list_memories',
    {
      description:
        "Browse the agent's memories of one scope, newest or most important first, a page at a time.",
      inputSchema: ListMemoriesArgs,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(services, 'list_memories', () =>
        listMemories(services, agentOf(args.agent_id), args),
      ),
  );
  return server;
}

/** The agent header of the request, or null (the same rules as the chat routes). */
function headerAgent(request: FastifyRequest): string | null {
  const raw = request.headers['x-osaurus-agent-id'];
  const v = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  if (v === '') return null;
  if (v.length > 200) {
    throw new CairnError(
      ErrorCode.ValidationFailed,
      'X-Osaurus-Agent-Id is at most 200 characters.',
    );
  }
  return v;
}

/**
 * The request as the SDK's web-standard transport reads it (the body is passed parsed). The
 * answer is always JSON here, so a client that accepts JSON but did not list SSE (plain
 * JSON-RPC over HTTP) is served instead of refused with 406.
 */
function toWebRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const v of [value].flat()) headers.append(name, v);
  }
  const accept = headers.get('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    headers.set('accept', 'application/json, text/event-stream');
  }
  return new Request(`http://${headers.get('host') ?? 'localhost'}/mcp`, {
    method: 'POST',
    headers,
  });
}

export function registerMcpRoutes(app: FastifyInstance, services: EngineServices): void {
  const onError = (err: FastifyError | Error, _request: FastifyRequest, reply: FastifyReply) => {
    const body = jsonRpcBodyError(err);
    // Thrown on: the app's error handler answers in the API's shape.
    if (body === null) throw err;
    return reply.code(body.status).type('application/json; charset=utf-8').send(body.reply);
  };

  app.post('/mcp', { errorHandler: onError }, async (request, reply) => {
    const refused = refusedToolCalls(request.body);
    if (refused !== null) return refused;
    const server = createMemoryMcpServer(services, headerAgent(request));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const res = await transport.handleRequest(toWebRequest(request), {
        parsedBody: request.body,
      });
      reply.code(res.status);
      res.headers.forEach((value, name) => {
        if (name !== 'content-length') reply.header(name, value);
      });
      const text = await res.text();
      return reply.send(text === '' ? undefined : text);
    } finally {
      await server.close();
    }
  });

  // Stateless: no server-initiated stream and no sessions to end.
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({
        error: {
          message: 'Use POST /mcp (JSON-RPC); this server does not open an event stream.',
          type: 'invalid_request_error',
          code: 'method_not_allowed',
        },
      });
  app.get('/mcp', notAllowed);
  app.delete('/mcp', notAllowed);
}
