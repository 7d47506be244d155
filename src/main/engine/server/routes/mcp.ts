// POST /mcp (DESIGN §9): the Model Context Protocol over Streamable HTTP, answering each
// JSON-RPC message with plain JSON (no server-initiated stream: GET answers 405, as the
// transport allows). Tools: search_memory, remember, forget.
//
// Each tool is the matching HTTP route, called in-process with the caller's own token, so
// validation, agent scoping, <private> stripping, identity overrides and vector removal are
// exactly those of the REST API. https://modelcontextprotocol.io/specification/2025-06-18/basic/transports
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import packageJson from '../../../../../package.json' with { type: 'json' };
import { ErrorCode } from '../../../../shared/errors.ts';
import { isCairnError } from '../../errors.ts';
import { exceedsJsonDepth } from '../json-depth.ts';

const SUPPORTED_VERSIONS = ['2025-06-18', '2025-03-26', '2024-11-05'];

const agentIdSchema = {
  type: 'string',
  description: 'The agent whose memory this is (the X-Osaurus-Agent-Id of its requests).',
};
const scopeSchema = { type: 'string', enum: ['pinned', 'episodes', 'transcript'] };

const TOOLS = [
  {
    name: 'search_memory',
    description:
      "Search the agent's long-term memory: pinned facts, episodes (summaries of past " +
      'conversations) or the raw transcript.',
    inputSchema: {
      type: 'object',
      properties: {
        agent_id: agentIdSchema,
        scope: scopeSchema,
        query: { type: 'string' },
        top_k: { type: 'integer', minimum: 1, maximum: 100 },
        days: { type: 'integer', minimum: 1, description: 'Only the last n days.' },
      },
      required: ['agent_id', 'scope', 'query'],
    },
  },
  {
    name: 'remember',
    description: 'Store a durable fact in the agent’s memory (a pinned fact).',
    inputSchema: {
      type: 'object',
      properties: {
        agent_id: agentIdSchema,
        content: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        salience: { type: 'number', minimum: 0, maximum: 1 },
      },
      required: ['agent_id', 'content'],
    },
  },
  {
    name: 'forget',
    description: 'Delete one memory by scope and id (as returned by search_memory).',
    inputSchema: {
      type: 'object',
      properties: {
        agent_id: agentIdSchema,
        scope: scopeSchema,
        id: { type: 'integer', minimum: 1 },
      },
      required: ['agent_id', 'scope', 'id'],
    },
  },
] as const;

interface JsonRpcMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

type JsonRpcReply =
  | { jsonrpc: '2.0'; id: unknown; result: unknown }
  | { jsonrpc: '2.0'; id: unknown; error: { code: number; message: string } };

const rpcError = (id: unknown, code: number, message: string): JsonRpcReply => ({
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
 * A body refused before the route ran (not JSON, too deep, too large) as the JSON-RPC error
 * an MCP client reads, with the HTTP status it had; null for other errors (authentication,
 * Host, Origin), which keep the API's own answer. The id is unknown: the body was not read.
 */
function jsonRpcBodyError(
  err: FastifyError | Error,
): { status: number; reply: JsonRpcReply } | null {
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

export function registerMcpRoutes(app: FastifyInstance): void {
  /** Runs a REST route in-process with the caller's credentials. */
  const callRoute = async (
    request: FastifyRequest,
    method: 'POST' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<{ ok: boolean; body: unknown }> => {
    const res = await app.inject({
      method,
      url,
      headers: {
        authorization: request.headers.authorization ?? '',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    let parsed: unknown = res.body;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      // keep the text
    }
    return { ok: res.statusCode < 300, body: parsed };
  };

  const callTool = async (request: FastifyRequest, name: string, args: Record<string, unknown>) => {
    let res: { ok: boolean; body: unknown };
    if (name === 'search_memory') {
      res = await callRoute(request, 'POST', '/memory/search', args);
    } else if (name === 'remember') {
      res = await callRoute(request, 'POST', '/memory/pinned', {
        agent_id: args.agent_id,
        content: args.content,
        ...(args.tags !== undefined ? { tags: args.tags } : {}),
        ...(args.salience !== undefined ? { salience: args.salience } : {}),
        pinned_by_user: false,
      });
    } else {
      const scope = args.scope;
      const id = args.id;
      if (scope !== 'pinned' && scope !== 'episodes' && scope !== 'transcript') {
        return toolError('scope must be one of pinned, episodes, transcript.');
      }
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
        return toolError('id must be a positive integer.');
      }
      if (typeof args.agent_id !== 'string') return toolError('agent_id is required.');
      res = await callRoute(
        request,
        'DELETE',
        `/memory/${scope}/${id}?agent_id=${encodeURIComponent(args.agent_id)}`,
      );
    }
    if (!res.ok) {
      const message = isObject(res.body) && isObject(res.body.error) ? res.body.error.message : '';
      return toolError(typeof message === 'string' && message ? message : 'The call failed.');
    }
    return { content: [{ type: 'text', text: JSON.stringify(res.body) }], isError: false };
  };

  const handle = async (request: FastifyRequest, msg: unknown): Promise<JsonRpcReply | null> => {
    if (!isObject(msg) || msg.jsonrpc !== '2.0' || typeof msg.method !== 'string') {
      // A response or something that is not JSON-RPC: nothing to answer for a response.
      if (isObject(msg) && msg.jsonrpc === '2.0' && msg.method === undefined) return null;
      return rpcError(isObject(msg) ? (msg.id ?? null) : null, -32600, 'Invalid Request');
    }
    const { id, params } = msg as JsonRpcMessage;
    const method = msg.method;
    if (id === undefined) return null; // a notification (e.g. notifications/initialized)
    switch (method) {
      case 'initialize': {
        const asked = isObject(params) ? params.protocolVersion : undefined;
        const protocolVersion =
          typeof asked === 'string' && SUPPORTED_VERSIONS.includes(asked)
            ? asked
            : SUPPORTED_VERSIONS[0];
        return {
          jsonrpc: '2.0',
          id,
          result: {
            protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'cairn', version: packageJson.version },
          },
        };
      }
      case 'ping':
        return { jsonrpc: '2.0', id, result: {} };
      case 'tools/list':
        return { jsonrpc: '2.0', id, result: { tools: TOOLS } };
      case 'tools/call': {
        if (!isObject(params) || typeof params.name !== 'string') {
          return rpcError(id, -32602, 'tools/call needs params.name.');
        }
        if (!TOOLS.some((t) => t.name === params.name)) {
          return rpcError(id, -32602, `Unknown tool: ${params.name}`);
        }
        const problem = toolArgumentsProblem(params.arguments);
        if (problem !== null) return rpcError(id, -32602, problem);
        const args = isObject(params.arguments) ? params.arguments : {};
        return { jsonrpc: '2.0', id, result: await callTool(request, params.name, args) };
      }
      default:
        return rpcError(id, -32601, `Method not found: ${method}`);
    }
  };

  const onError = (err: FastifyError | Error, _request: FastifyRequest, reply: FastifyReply) => {
    const body = jsonRpcBodyError(err);
    // Thrown on: the app's error handler answers in the API's shape.
    if (body === null) throw err;
    return reply.code(body.status).type('application/json; charset=utf-8').send(body.reply);
  };

  app.post('/mcp', { errorHandler: onError }, async (request, reply) => {
    const body = request.body;
    if (Array.isArray(body)) {
      if (body.length === 0) return rpcError(null, -32600, 'Invalid Request');
      const replies: JsonRpcReply[] = [];
      for (const m of body.slice(0, 100)) {
        const r = await handle(request, m);
        if (r) replies.push(r);
      }
      if (replies.length === 0) return reply.code(202).send();
      return replies;
    }
    const r = await handle(request, body);
    if (!r) return reply.code(202).send();
    return r;
  });

  // No server-initiated stream and no sessions to end.
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

function toolError(message: string) {
  return { content: [{ type: 'text', text: message }], isError: true };
}
