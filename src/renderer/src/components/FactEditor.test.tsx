// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client.ts';
import { FactEditor, type FactDraft } from './FactEditor.tsx';

afterEach(cleanup);

describe('FactEditor', () => {
  it('submits the edited fact with parsed tags', async () => {
    const user = userEvent.setup();
    const submitted: FactDraft[] = [];
    render(
      <FactEditor
        submitLabel="Save"
        initial={{ content: 'Likes tea', salience: 0.5, tags: ['drinks'], pinned_by_user: false }}
        onSubmit={async (d) => {
          submitted.push(d);
        }}
      />,
    );
    const content = screen.getByLabelText('Fact');
    await user.clear(content);
    await user.type(content, 'Likes green tea, no sugar');
    const tags = screen.getByLabelText('Tags (comma-separated)');
    await user.clear(tags);
    await user.type(tags, 'drinks,  preferences , ');
    await user.click(screen.getByLabelText(/Pinned by me/));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(submitted).toEqual([
      {
        content: 'Likes green tea, no sugar',
        salience: 0.5,
        tags: ['drinks', 'preferences'],
        pinned_by_user: true,
      },
    ]);
  });

  it('shows validation errors next to the fields and does not submit', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(async () => {});
    render(<FactEditor submitLabel="Add fact" onSubmit={onSubmit} />);
    const salience = screen.getByLabelText('Salience (0–1)');
    await user.clear(salience);
    await user.type(salience, '1.5');
    await user.type(screen.getByLabelText('Tags (comma-separated)'), 'x'.repeat(51));
    await user.click(screen.getByRole('button', { name: 'Add fact' }));

    expect(onSubmit).not.toHaveBeenCalled();
    const content = screen.getByLabelText('Fact');
    expect(content).toHaveAttribute('aria-invalid', 'true');
    expect(content).toHaveAccessibleDescription('content must not be empty');
    expect(salience).toHaveAttribute('aria-invalid', 'true');
    expect(salience).toHaveAccessibleDescription('Salience must be a number between 0 and 1.');
    expect(screen.getByLabelText('Tags (comma-separated)')).toHaveAttribute('aria-invalid', 'true');

    // Fixing the fields clears the errors and submits.
    await user.type(content, 'Works at the lighthouse');
    await user.clear(salience);
    await user.type(salience, '0.9');
    await user.clear(screen.getByLabelText('Tags (comma-separated)'));
    await user.click(screen.getByRole('button', { name: 'Add fact' }));
    expect(onSubmit).toHaveBeenCalledOnce();
    expect(content).not.toHaveAttribute('aria-invalid');
  });

  it("shows the server's message when saving fails, and keeps the draft", async () => {
    const user = userEvent.setup();
    render(
      <FactEditor
        submitLabel="Save"
        initial={{ content: 'Owns a boat' }}
        onSubmit={async () => {
          throw new ApiError('pinned fact 7 not found for agent a', 404, 'not_found', 'x');
        }}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'pinned fact 7 not found for agent a',
    );
    expect(screen.getByLabelText('Fact')).toHaveValue('Owns a boat');
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('cancels without submitting', async () => {
    const user = userEvent.setup();
    const onCancel = vi.fn();
    const onSubmit = vi.fn(async () => {});
    render(<FactEditor submitLabel="Save" onSubmit={onSubmit} onCancel={onCancel} />);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
