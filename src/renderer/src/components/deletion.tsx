// Deleting from the UI (issue 12): every deletion goes to the trash, so each one is followed by
// a notice with Undo (restore), and every confirmation says for how long it can be restored.
// Lists share the selection state, the bar that acts on it, and the bulk delete.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useApi } from '../api/ApiContext.tsx';
import { qk } from '../api/keys.ts';
import { plural } from '../format.ts';
import { ConfirmDialog, ErrorBox } from './ui.tsx';

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
  const [confirming, setConfirming] = useState(false);
  const chosen = selection.among(visible);
  const all = visible.length > 0 && chosen.length === visible.length;
  const remove = useMutation({
    mutationFn: (ids: number[]) => api.deleteSelection({ agent_id: agentId, [kind]: ids }),
    onSuccess: (res, ids) => {
      setConfirming(false);
      selection.clear();
      refresh(agentId);
      onDeleted({
        message: `Deleted ${plural(ids.length, noun)} (restorable from the Trash for ${plural(trashDays, 'day')}).`,
        trashId: res.trash_id,
        agentId,
      });
    },
  });
  if (visible.length === 0) return null;
  return (
    <div className="selection-bar" role="group" aria-label={`Selected ${noun}s`}>
      <div className="field-check">
        <input
          id={`${id}-all`}
          type="checkbox"
          checked={all}
          onChange={(e) => selection.setAll(visible, e.target.checked)}
        />
        <label htmlFor={`${id}-all`}>Select all on this page</label>
      </div>
      <span className="muted" aria-live="polite">
        {chosen.length} selected
      </span>
      <button
        type="button"
        className="btn btn-small btn-danger-outline"
        disabled={chosen.length === 0}
        onClick={() => setConfirming(true)}
      >
        Delete selected
      </button>
      {confirming ? (
        <ConfirmDialog
          title={`Delete ${plural(chosen.length, noun)}?`}
          confirmLabel="Delete"
          busy={remove.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() => remove.mutate(chosen)}
        >
          <p>
            The selected {plural(chosen.length, noun)} go to the trash as one entry. You can restore
            them from the Trash page for {plural(trashDays, 'day')}; after that they are deleted for
            good.
          </p>
          <ErrorBox error={remove.error} />
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
