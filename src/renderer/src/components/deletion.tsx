// Deleting from the UI (issue 12): every deletion goes to the trash, so each one is followed by
// a notice with Undo (restore), and every confirmation says for how long it can be restored.
// Lists share the selection state, the bar that acts on it, and the bulk delete; every
// confirmed action (forget, delete, purge) asks through the same dialog.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { useApi } from '../api/ApiContext.tsx';
import { qk } from '../api/keys.ts';
import { plural } from '../format.ts';
import { PagedList, useListFilter, type PagedListProps } from './PagedList.tsx';
import { CheckField, ConfirmDialog, ErrorBox, Notice } from './ui.tsx';

/** How long deleted memory stays restorable (the `trashDays` setting, 30 until loaded). */
export function useTrashDays(): number {
  const api = useApi();
  const settings = useQuery({ queryKey: qk.settings, queryFn: () => api.getSettings() });
  return settings.data?.trashDays ?? 30;
}

/** Refreshes everything a deletion or a restore changes. */
export function useAfterDeletion(): (agentId?: string) => void {
  const queryClient = useQueryClient();
  return (agentId) => {
    void queryClient.invalidateQueries({ queryKey: agentId ? qk.memory(agentId) : ['memory'] });
    void queryClient.invalidateQueries({ queryKey: qk.agents });
    void queryClient.invalidateQueries({ queryKey: qk.stats });
    void queryClient.invalidateQueries({ queryKey: qk.trash });
  };
}

/** A deletion that can still be undone: what to say, and the trash entry that restores it. */
export interface Undoable {
  message: string;
  trashId: number;
  agentId?: string;
}

/** "Forgot …. [Undo]": Undo restores the trash entry; the notice then says so. */
export function UndoNotice({ undo, onClose }: { undo: Undoable; onClose?: () => void }) {
  const api = useApi();
  const refresh = useAfterDeletion();
  const restore = useMutation({
    mutationFn: () => api.restoreTrash(undo.trashId),
    onSuccess: () => refresh(undo.agentId),
  });
  return (
    <div className="alert alert-ok undo-notice" role="status">
      {restore.isSuccess ? (
        <span>Restored.</span>
      ) : (
        <>
          <span>{undo.message}</span>{' '}
          <button
            type="button"
            className="btn btn-small"
            disabled={restore.isPending}
            onClick={() => restore.mutate()}
          >
            Undo
          </button>
        </>
      )}
      {onClose ? (
        <button type="button" className="btn btn-small" onClick={onClose}>
          Dismiss
        </button>
      ) : null}
      <ErrorBox error={restore.error} />
    </div>
  );
}

/** What a list says after a change: a plain notice, or a deletion with Undo (one at a time). */
export type Outcome = { notice: string } | { undo: Undoable } | null;

export function OutcomeNotice({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  if ('notice' in outcome) return <Notice tone="ok">{outcome.notice}</Notice>;
  return <UndoNotice key={outcome.undo.trashId} undo={outcome.undo} />;
}

/**
 * An action on one item that asks first: the item being confirmed (null when none), and the
 * mutation that runs once the user confirms; success closes the dialog.
 */
export function useConfirmed<T, R>(
  run: (item: T) => Promise<R>,
  onDone: (res: R, item: T) => void,
) {
  const [item, setItem] = useState<T | null>(null);
  const mutation = useMutation({
    mutationFn: run,
    onSuccess: (res, done) => {
      setItem(null);
      onDone(res, done);
    },
  });
  return { item, ask: (next: T) => setItem(next), cancel: () => setItem(null), mutation };
}

/** What the dialog needs of a `useConfirmed` action, whatever its answer. */
export interface Confirmed<T> {
  item: T | null;
  cancel: () => void;
  mutation: { isPending: boolean; error: Error | null; mutate: (item: T) => void };
}

/** The dialog of a `useConfirmed` action, with what it does and the error if it failed. */
export function ConfirmAction<T>({
  action,
  title,
  confirmLabel,
  danger,
  children,
}: {
  action: Confirmed<T>;
  title: (item: T) => string;
  confirmLabel: string;
  danger?: boolean;
  children: (item: T) => ReactNode;
}) {
  const { item, mutation } = action;
  if (item === null) return null;
  return (
    <ConfirmDialog
      title={title(item)}
      confirmLabel={confirmLabel}
      danger={danger}
      busy={mutation.isPending}
      onCancel={action.cancel}
      onConfirm={() => mutation.mutate(item)}
    >
      {children(item)}
      <ErrorBox error={mutation.error} />
    </ConfirmDialog>
  );
}

/**
 * Forgetting one row of an agent's memory: asked first, then the notice offers Undo and
 * everything the deletion changes is refreshed.
 */
export function useForget<T>(
  agentId: string,
  forget: (item: T) => Promise<{ trash_id: number }>,
  describe: (item: T) => string,
  onForgotten: (undo: Undoable) => void,
) {
  const afterDeletion = useAfterDeletion();
  return useConfirmed(forget, (res, item) => {
    onForgotten({ message: describe(item), trashId: res.trash_id, agentId });
    afterDeletion(agentId);
  });
}

/** Which rows of a list are selected (ids); only rows still shown count. */
export function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  return {
    has: (id: number) => selected.has(id),
    toggle: (id: number) =>
      setSelected((s) => {
        const next = new Set(s);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    setAll: (ids: readonly number[], on: boolean) =>
      setSelected((s) => {
        const next = new Set(s);
        for (const id of ids) {
          if (on) next.add(id);
          else next.delete(id);
        }
        return next;
      }),
    clear: () => setSelected(new Set()),
    /** The selected ids among `visible`. */
    among: (visible: readonly number[]) => visible.filter((id) => selected.has(id)),
  };
}
export type Selection = ReturnType<typeof useSelection>;

/** The checkbox that selects one row (labelled with what it selects). */
export function SelectBox({
  selection,
  id,
  label,
}: {
  selection: Selection;
  id: number;
  label: string;
}) {
  return (
    <input
      type="checkbox"
      className="select-box"
      aria-label={label}
      checked={selection.has(id)}
      onChange={() => selection.toggle(id)}
    />
  );
}

/**
 * "Select all on this page · N selected · Delete selected": the bulk delete of one list. The
 * rows go to the trash as one entry (POST /memory/delete), after a confirmation, and the
 * notice offers Undo.
 */
export function BulkDeleteBar({
  agentId,
  kind,
  visible,
  selection,
  noun,
  onDeleted,
}: {
  agentId: string;
  kind: 'pinned' | 'episodes' | 'transcript';
  visible: readonly number[];
  selection: Selection;
  /** What a row is called: fact, episode, message. */
  noun: string;
  onDeleted: (undo: Undoable) => void;
}) {
  const api = useApi();
  const id = useId();
  const trashDays = useTrashDays();
  const refresh = useAfterDeletion();
  const chosen = selection.among(visible);
  const all = visible.length > 0 && chosen.length === visible.length;
  const remove = useConfirmed(
    (ids: number[]) => api.deleteSelection({ agent_id: agentId, [kind]: ids }),
    (res, ids) => {
      selection.clear();
      refresh(agentId);
      onDeleted({
        message: `Deleted ${plural(ids.length, noun)} (restorable from the Trash for ${plural(trashDays, 'day')}).`,
        trashId: res.trash_id,
        agentId,
      });
    },
  );
  if (visible.length === 0) return null;
  return (
    <div className="selection-bar" role="group" aria-label={`Selected ${noun}s`}>
      <CheckField
        id={`${id}-all`}
        label="Select all on this page"
        checked={all}
        onChange={(on) => selection.setAll(visible, on)}
      />
      <span className="muted" aria-live="polite">
        {chosen.length} selected
      </span>
      <button
        type="button"
        className="btn btn-small btn-danger-outline"
        disabled={chosen.length === 0}
        onClick={() => remove.ask(chosen)}
      >
        Delete selected
      </button>
      <ConfirmAction
        action={remove}
        title={(ids) => `Delete ${plural(ids.length, noun)}?`}
        confirmLabel="Delete"
      >
        {(ids) => (
          <p>
            The selected {plural(ids.length, noun)} go to the trash as one entry. You can restore
            them from the Trash page for {plural(trashDays, 'day')}; after that they are deleted for
            good.
          </p>
        )}
      </ConfirmAction>
    </div>
  );
}

/** "4 messages, 1 episode, 2 facts" from a deletion's counts per table. */
export function countsText(counts: Record<string, number>): string {
  const names: Record<string, [string, string]> = {
    transcript: ['message', 'messages'],
    episodes: ['episode', 'episodes'],
    pinned_facts: ['fact', 'facts'],
    identity: ['identity', 'identities'],
  };
  const parts = Object.entries(names)
    .filter(([table]) => (counts[table] ?? 0) > 0)
    .map(([table, [one, many]]) => {
      const n = counts[table] ?? 0;
      return `${n} ${n === 1 ? one : many}`;
    });
  return parts.length > 0 ? parts.join(', ') : 'nothing stored';
}

/**
 * What a selectable list of one agent's memory keeps: its word filter and page, the selected
 * rows, what the last change did, and how long deletions stay restorable.
 */
export function useSelectableList() {
  const [outcome, setOutcome] = useState<Outcome>(null);
  return {
    filter: useListFilter(),
    selection: useSelection(),
    trashDays: useTrashDays(),
    outcome,
    setOutcome,
  };
}
export type SelectableListState = ReturnType<typeof useSelectableList>;

/**
 * A page of one agent's memory whose rows can be selected and deleted together: what the last
 * change did (with Undo), the list's errors, the bulk delete bar, then the rows and the pager.
 */
export function SelectableList<T extends { id: number }>({
  agentId,
  kind,
  noun,
  list,
  state,
  error,
  ...page
}: Omit<PagedListProps<T>, 'offset' | 'onPage'> & {
  agentId: string;
  kind: 'pinned' | 'episodes' | 'transcript';
  noun: string;
  state: SelectableListState;
  /** Another error to show with the list's own (a failed edit). */
  error?: unknown;
}) {
  const { selection, outcome, setOutcome, filter } = state;
  return (
    <>
      <OutcomeNotice outcome={outcome} />
      <ErrorBox error={list.error} />
      <ErrorBox error={error} />
      <BulkDeleteBar
        agentId={agentId}
        kind={kind}
        noun={noun}
        visible={list.data?.items.map((row) => row.id) ?? []}
        selection={selection}
        onDeleted={(undo) => setOutcome({ undo })}
      />
      <PagedList list={list} offset={filter.offset} onPage={filter.setOffset} {...page} />
    </>
  );
}
