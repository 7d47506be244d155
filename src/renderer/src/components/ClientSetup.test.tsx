// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENTS, ClientSetup, clientSetupSnippet } from './ClientSetup.tsx';

afterEach(cleanup);

const base = 'http://127.0.0.1:1337';

describe('clientSetupSnippet', () => {
  it('names the agent and carries the token for every client', () => {
    for (const { id } of CLIENTS) {
      const text = clientSetupSnippet(id, base, 'tok-123');
      // The agent is named by the header, or by `cairn mcp --agent` for a stdio client.
      expect(text, id).toMatch(/X-Osaurus-Agent-Id|"--agent"/);
      expect(text, id).toContain('tok-123');
      expect(text, id).toContain(base);
    }
  });

  it('gives the JSON clients valid JSON pointing at the right endpoint', () => {
    const desktop = JSON.parse(clientSetupSnippet('claude-desktop', base, 't')) as {
      mcpServers: { cairn: { command: string; args: string[]; env: Record<string, string> } };
    };
    expect(desktop.mcpServers.cairn.args[0]).toBe('mcp');
    expect(desktop.mcpServers.cairn.env).toEqual({ CAIRN_URL: base, CAIRN_TOKEN: 't' });
    const cursor = JSON.parse(clientSetupSnippet('cursor', base, 't')) as {
      mcpServers: { cairn: { url: string; headers: Record<string, string> } };
    };
    expect(cursor.mcpServers.cairn.url).toBe(`${base}/mcp`);
    expect(cursor.mcpServers.cairn.headers.Authorization).toBe('Bearer t');
    expect(clientSetupSnippet('codex', base, 't')).toContain(`base_url = "${base}/v1"`);
  });
});

describe('ClientSetup', () => {
  it('shows a placeholder until the token is revealed, and switches clients by tab', async () => {
    const { rerender } = render(<ClientSetup baseUrl={base} token="secret-tok" reveal={false} />);
    expect(screen.getByTestId('client-setup')).toHaveTextContent('ANTHROPIC_BASE_URL');
    expect(screen.getByTestId('client-setup')).not.toHaveTextContent('secret-tok');
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Continue' }));
    expect(screen.getByRole('tab', { name: 'Continue' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('client-setup')).toHaveTextContent('provider: ollama');
    rerender(<ClientSetup baseUrl={base} token="secret-tok" reveal />);
    expect(screen.getByTestId('client-setup')).toHaveTextContent('secret-tok');
  });
});
