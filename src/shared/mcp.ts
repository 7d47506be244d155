// The MCP tools' arguments (DESIGN §9, issue 13): zod shapes the MCP SDK turns into each
// tool's JSON input schema and validates calls with. They reuse the REST API's field rules
// (src/shared/api.ts) so a tool accepts exactly what the matching HTTP route accepts; only
// `agent_id` is optional here, since a client may scope its session with the
// X-Osaurus-Agent-Id header instead.
import { z } from 'zod';
import { PinnedCreate, SearchRequest, SearchScope } from './api.ts';

/** The SDK's name for the endpoint and the stdio server. */
export const MCP_SERVER_NAME = 'cairn';

export const McpToolName = z.enum(['search_memory', 'remember', 'forget', 'list_memories']);
export type McpToolName = z.infer<typeof McpToolName>;

const agentIdArg = SearchRequest.shape.agent_id
  .optional()
  .describe(
    'The agent whose memory this is (the X-Osaurus-Agent-Id of its requests). ' +
      'Optional when the MCP connection sends that header.',
  );
const scopeArg = SearchScope.describe(
  'pinned: durable facts; episodes: summaries of past conversations; transcript: raw messages.',
);

export const SearchMemoryArgs = {
  agent_id: agentIdArg,
  scope: scopeArg,
  query: SearchRequest.shape.query.describe('What to look for, in plain words.'),
  top_k: SearchRequest.shape.top_k.describe('How many results (default 10).'),
  days: SearchRequest.shape.days.describe('Only memories of the last n days.'),
};

export const RememberArgs = {
  agent_id: agentIdArg,
  content: PinnedCreate.shape.content.describe('The fact, as one self-contained sentence.'),
  tags: PinnedCreate.shape.tags,
  salience: PinnedCreate.shape.salience.describe('How important, 0 to 1 (default 0.8).'),
};

export const ForgetArgs = {
  agent_id: agentIdArg,
  scope: scopeArg,
  id: z
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .describe('The id search_memory or list_memories returned.'),
};

export const ListMemoriesArgs = {
  agent_id: agentIdArg,
  scope: scopeArg,
  limit: z.number().int().min(1).max(200).optional().describe('Page size (default 50).'),
  offset: z.number().int().min(0).optional().describe('Rows to skip (default 0).'),
};

export type SearchMemoryArgs = z.infer<z.ZodObject<typeof SearchMemoryArgs>>;
export type RememberArgs = z.infer<z.ZodObject<typeof RememberArgs>>;
export type ForgetArgs = z.infer<z.ZodObject<typeof ForgetArgs>>;
export type ListMemoriesArgs = z.infer<z.ZodObject<typeof ListMemoriesArgs>>;
