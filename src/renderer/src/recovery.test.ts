// @vitest-environment jsdom
// The recovery prompt page: the reason from the URL, the key sent through the preload's
// bridge, a refusal shown next to the field, Quit asking the main process to give up.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RecoveryBridge } from '../../shared/ipc.ts';
import html from '../recovery.html?raw';

const submitted: string[] = [];
let cancelled = 0;

beforeAll(async () => {
  document.body.innerHTML = /<body>([\s\S]*)<\/body>/
    .exec(html)![1]!
    .replace(/<script[\s\S]*?<\/script>/g, '');
  window.location.hash = encodeURIComponent('The database cannot be opened with this key.');
  const bridge: RecoveryBridge = {
    submit: async (key) => {
      submitted.push(key);
      return key === 'GOOD'
        ? { ok: true }
        : { ok: false, message: 'The recovery key has a typo: its checksum does not match.' };
    },
    cancel: async () => {
      cancelled++;
    },
  };
  window.cairnRecovery = bridge;
  await import('./recovery.ts');
});

describe('recovery prompt', () => {
  it('shows why it asks, and the refusal of a wrong key', async () => {
    const user = userEvent.setup();
    expect(screen.getByText('The database cannot be opened with this key.')).toBeInTheDocument();
    const input = screen.getByLabelText('Recovery key');
    expect(input).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Type or paste your recovery key.');
    expect(submitted).toEqual([]);

    await user.type(input, '  BAD-KEY ');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('checksum does not match'),
    );
    expect(submitted).toEqual(['BAD-KEY']);
    expect(input).toHaveAttribute('aria-invalid', 'true');
  });

  it('quits through the bridge', async () => {
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Quit Cairn' }));
    expect(cancelled).toBe(1);
  });
});
