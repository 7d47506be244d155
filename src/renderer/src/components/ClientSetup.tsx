import { useState } from 'react';
import { Card, CopyButton, Tabs } from './ui.tsx';

// Ready-to-paste setup for the clients people point at Cairn (issue 13): each speaks its own
// format (Anthropic Messages, OpenAI Responses, MCP, Ollama's API) and Cairn gives memory to
// all of them when the agent is named with X-Osaurus-Agent-Id. Copied with the real token;
// shown with a placeholder until the token is revealed.

export type ClientKind =
  'claude-code' | 'codex' | 'claude-desktop' | 'cursor' | 'openwebui' | 'continue';

export const CLIENTS: readonly { id: ClientKind; label: string; where: string }[] = [
  {
    id: 'claude-code',
    label: 'Claude Code',
    where: 'Shell profile (or .claude/settings.json "env")',
  },
  { id: 'codex', label: 'Codex', where: '~/.codex/config.toml, then export CAIRN_TOKEN' },
  {
    id: 'claude-desktop',
    label: 'Claude Desktop',
    where: 'claude_desktop_config.json (Settings → Developer → Edit Config)',
  },
  { id: 'cursor', label: 'Cursor', where: '~/.cursor/mcp.json (or .cursor/mcp.json in a project)' },
  {
    id: 'openwebui',
    label: 'Open WebUI',
    where: 'Admin Settings → Connections → Ollama API → add a connection',
  },
  { id: 'continue', label: 'Continue', where: '~/.continue/config.yaml' },
];

/** The setup text of one client for a Cairn at `baseUrl` (no trailing slash). */
export function clientSetupSnippet(kind: ClientKind, baseUrl: string, token: string): string {
  switch (kind) {
    case 'claude-code':
      return `export ANTHROPIC_BASE_URL=${baseUrl}
export ANTHROPIC_AUTH_TOKEN=${token}
export ANTHROPIC_CUSTOM_HEADERS="X-Osaurus-Agent-Id: claude-code"
claude`;
    case 'codex':
      return `model_provider = "cairn"

[model_providers.cairn]
name = "Cairn"
base_url = "${baseUrl}/v1"
env_key = "CAIRN_TOKEN"          # export CAIRN_TOKEN=${token}
wire_api = "responses"
http_headers = { "X-Osaurus-Agent-Id" = "codex" }`;
    case 'claude-desktop':
      return JSON.stringify(
        {
          mcpServers: {
            cairn: {
              command: 'cairn',
              args: ['mcp', '--agent', 'claude-desktop'],
              env: { CAIRN_URL: baseUrl, CAIRN_TOKEN: token },
            },
          },
        },
        null,
        2,
      );
    case 'cursor':
      return JSON.stringify(
        {
          mcpServers: {
            cairn: {
              url: `${baseUrl}/mcp`,
              headers: { Authorization: `Bearer ${token}`, 'X-Osaurus-Agent-Id': 'cursor' },
            },
          },
        },
        null,
        2,
      );
    case 'openwebui':
      return `URL:      ${baseUrl}
Key:      ${token}
Headers:  {"X-Osaurus-Agent-Id": "open-webui"}`;
    case 'continue':
      return `models:
  - name: Cairn
    provider: ollama
    model: llama3.2
    apiBase: ${baseUrl}
    apiKey: ${token}
    requestOptions:
      headers:
        X-Osaurus-Agent-Id: continue`;
  }
}

/** One tab per client; the snippet is copied with the real token. */
export function ClientSetup({
  baseUrl,
  token,
  reveal,
}: {
  baseUrl: string;
  token: string;
  reveal: boolean;
}) {
  const [kind, setKind] = useState<ClientKind>('claude-code');
  const client = CLIENTS.find((c) => c.id === kind)!;
  const shown = reveal ? token : '<your token>';
  return (
    <Card
      title="Set up a client"
      actions={<CopyButton text={clientSetupSnippet(kind, baseUrl, token)} label="Copy setup" />}
    >
      <p className="muted">
        Coding agents, chat apps and MCP clients each speak their own format; Cairn answers all of
        them and remembers per agent (<code>X-Osaurus-Agent-Id</code>). Claude Desktop starts{' '}
        <code>cairn mcp</code>, which talks to this running Cairn.
      </p>
      <Tabs
        idPrefix="client-tab"
        label="Client"
        tabs={CLIENTS}
        selected={kind}
        onSelect={setKind}
        panelId="client-panel"
      />
      <div id="client-panel" role="tabpanel" aria-labelledby={`client-tab-${kind}`}>
        <p className="muted">{client.where}</p>
        <pre className="code" tabIndex={0} data-testid="client-setup">
          {clientSetupSnippet(kind, baseUrl, shown)}
        </pre>
      </div>
    </Card>
  );
}
