// `cairn mcp` (DESIGN §9): an MCP server on stdin/stdout for clients that only start local
// processes (Claude Desktop). It holds no memory and no database key: it is an MCP client of
// the RUNNING Cairn's /mcp endpoint and relays tools/list and tools/call to it. Relaying keeps
// one definition of the tools (the engine's), so the stdio tools never drift from the HTTP
// ones, and the database is only ever opened by the process that owns it.
//
// stdout carries nothing but JSON-RPC (the StdioServerTransport); every log line goes to
// stderr, where MCP clients collect a server's diagnostics.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ErrorCode as McpErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import packageJson from '../../package.json' with { type: 'json' };
import { MCP_SERVER_NAME } from '../shared/mcp.ts';
import { displayUrl } from '../shared/urls.ts';

export interface McpStdioOptions {
  /** Base URL of the running Cairn (http://127.0.0.1:1337). */
  url: string;
  /** The access token (Authorization: Bearer). */
  token: string;
  /** Scopes every call to this agent (X-Osaurus-Agent-Id), when given. */
  agentId?: string;
  /** Diagnostics (stderr): never stdout, which belongs to JSON-RPC. */
  log(line: string): void;
}

/** Starts the stdio server; resolves once it is listening on stdin. */
export async function runMcpStdio(options: McpStdioOptions): Promise<{ close(): Promise<void> }> {
  const endpoint = new URL('/mcp', options.url);
  const headers: Record<string, string> = { Authorization: `Bearer ${options.token}` };
  if (options.agentId) headers['X-Osaurus-Agent-Id'] = options.agentId;

  // Connected on first use (and again after a failure), so the stdio server starts even
  // when Cairn is not running yet, and recovers once it is.
  let upstream: Promise<Client> | null = null;
  const connectUpstream = (): Promise<Client> => {
    upstream ??= (async () => {
      const client = new Client({ name: 'cairn-mcp-stdio', version: packageJson.version });
      await client.connect(
        new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }),
      );
      return client;
    })();
    return upstream;
  };
  const relay = async <T>(what: string, call: (client: Client) => Promise<T>): Promise<T> => {
    try {
      return await call(await connectUpstream());
    } catch (err) {
      const broken = upstream;
      upstream = null;
      void broken?.then((c) => c.close()).catch(() => {});
      if (err instanceof McpError) throw err;
      const message = `Cannot reach Cairn at ${displayUrl(options.url) ?? options.url} (${(err as Error).message}). Is it running?`;
      options.log(`cairn mcp: ${what} failed: ${message}`);
      throw new McpError(McpErrorCode.InternalError, message);
    }
  };

  const server = new Server(
    { name: MCP_SERVER_NAME, version: packageJson.version },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) =>
    relay('tools/list', (client) => client.listTools(request.params)),
  );
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    relay('tools/call', (client) => client.callTool(request.params)),
  );
  await server.connect(new StdioServerTransport());
  options.log(`cairn mcp: relaying to ${displayUrl(endpoint.href) ?? 'Cairn'}`);
  return {
    close: async () => {
      await server.close();
      const client = await upstream?.catch(() => null);
      await client?.close();
    },
  };
}
