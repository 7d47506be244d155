// Small shared building blocks: real buttons and labels, visible focus, aria where needed.
import {
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
} from 'react';
import type { z } from 'zod';
import { errorMessage } from '../api/client.ts';

export function ErrorBox({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <div className="alert alert-error" role="alert">
      {title ? <strong>{title}: </strong> : null}
      {errorMessage(error)}
    </div>
  );
}

export function Notice({ children, tone = 'info' }: { children: ReactNode; tone?: 'info' | 'ok' }) {
  return (
    <div className={`alert alert-${tone}`} role="status">
      {children}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="muted" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

/** A page's title, with what acts on the whole page (an agent picker, Refresh) beside it. */
export function PageHeader({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children}
    </div>
  );
}

export function Card({
  title,
  actions,
  children,
  className,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const id = useId();
  return (
    <section className={`card ${className ?? ''}`} aria-labelledby={title ? id : undefined}>
      {title || actions ? (
        <header className="card-header">
          {title ? <h2 id={id}>{title}</h2> : <span />}
          {actions ? <div className="card-actions">{actions}</div> : null}
        </header>
      ) : null}
      {children}
    </section>
  );
}

export function Badge({
  children,
  tone = 'neutral',
}: {
  children: ReactNode;
  tone?: 'neutral' | 'ok' | 'warn' | 'error' | 'accent';
}) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

/** A small outlined button for an action that deletes (it asks before it does). */
export function DangerButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className="btn btn-small btn-danger-outline" onClick={onClick}>
      {children}
    </button>
  );
}

/** A button that runs a mutation: disabled and saying so while it runs. */
export function MutationButton({
  mutation,
  busyLabel,
  children,
}: {
  mutation: { isPending: boolean; mutate: () => void };
  busyLabel: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="btn"
      onClick={() => mutation.mutate()}
      disabled={mutation.isPending}
    >
      {mutation.isPending ? busyLabel : children}
    </button>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <button
      type="button"
      className="btn btn-small"
      onClick={() => {
        void copyText(text).then(() => setCopied(true));
      }}
    >
      <span aria-live="polite">{copied ? 'Copied' : label}</span>
    </button>
  );
}

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API refused (insecure context): fall back to a temporary selection.
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.className = 'visually-hidden';
    document.body.append(ta);
    ta.select();
    document.execCommand('copy');
    ta.remove();
  }
}

export function Pager({
  total,
  limit,
  offset,
  onChange,
  label,
}: {
  total: number;
  limit: number;
  offset: number;
  onChange: (offset: number) => void;
  label: string;
}) {
  if (total === 0) return null;
  const from = offset + 1;
  const to = Math.min(offset + limit, total);
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <span className="muted">
        {from}–{to} of {total}
      </span>
      <button
        type="button"
        className="btn btn-small"
        disabled={offset === 0}
        onClick={() => onChange(Math.max(0, offset - limit))}
      >
        Previous
      </button>
      <button
        type="button"
        className="btn btn-small"
        disabled={to >= total}
        onClick={() => onChange(offset + limit)}
      >
        Next
      </button>
    </nav>
  );
}

/** A modal confirmation: focus moves in, Escape cancels, focus returns to the opener. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  busy,
  danger = true,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  danger?: boolean;
}) {
  const titleId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    cancelRef.current?.focus();
    return () => opener?.focus?.();
  }, []);
  return (
    <div className="modal-backdrop">
      <div
        ref={dialogRef}
        className="modal"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onCancel();
          if (e.key === 'Tab') trapFocus(e, dialogRef.current);
        }}
      >
        <h2 id={titleId}>{title}</h2>
        <div className="modal-body">{children}</div>
        <div className="modal-actions">
          <button ref={cancelRef} type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
          <button
            type="button"
            className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
            onClick={onConfirm}
            disabled={busy}
          >
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}

function trapFocus(e: ReactKeyboardEvent, root: HTMLElement | null): void {
  if (!root) return;
  const items = root.querySelectorAll<HTMLElement>(
    'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])',
  );
  if (items.length === 0) return;
  const first = items[0]!;
  const last = items[items.length - 1]!;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="field-error" role="alert">
      {message}
    </p>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** The word filter at the head of a memory list; any change goes back to the first page. */
export function FilterField({
  id,
  value,
  placeholder,
  onChange,
}: {
  id: string;
  value: string;
  placeholder: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field field-inline grow">
      <label htmlFor={id}>Filter</label>
      <input
        id={id}
        type="search"
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

/** A labelled select over the values of a shared enum schema: the choice is parsed, not cast. */
export function SelectField<V extends string>({
  id,
  label,
  value,
  schema,
  options,
  order = Object.keys(options) as V[],
  onChange,
  inline,
  disabled,
  describedBy,
}: {
  id: string;
  label: string;
  value: V;
  schema: z.ZodType<V>;
  /** Every value with its label. */
  options: Record<V, string>;
  /** The order shown, when not the order of `options`. */
  order?: readonly V[];
  onChange: (value: V) => void;
  /** Label beside the select (a toolbar), not above it (a form). */
  inline?: boolean;
  disabled?: boolean;
  describedBy?: string;
}) {
  return (
    <div className={inline ? 'field field-inline' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(e) => onChange(schema.parse(e.target.value))}
      >
        {order.map((v) => (
          <option key={v} value={v}>
            {options[v]}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * What a query shows under its error: a spinner while it loads, the empty state when it found
 * nothing, else its content (nothing when it failed: the error says why).
 */
export function QueryBody<T>({
  query,
  isEmpty,
  empty,
  children,
}: {
  query: { isPending: boolean; data: T | undefined };
  isEmpty: (data: T) => boolean;
  empty: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.data === undefined) return null;
  if (isEmpty(query.data)) return <EmptyState>{empty}</EmptyState>;
  return <>{children(query.data)}</>;
}

/** A column of a DataTable: its heading, right-aligned for numbers, or read only by screen readers. */
export type Column = string | { label: string; num?: boolean; hidden?: boolean };

/** A table that scrolls on its own when narrow, captioned for screen readers; rows as children. */
export function DataTable({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: readonly Column[];
  children: ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => {
              const col = typeof c === 'string' ? { label: c } : c;
              return (
                <th scope="col" key={col.label} className={col.num ? 'num' : undefined}>
                  {col.hidden ? <span className="visually-hidden">{col.label}</span> : col.label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** What a Field gives its control: its id, and the help and error that describe it. */
export interface FieldControl {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** A labelled control with its help and its error under it, both read with the control. */
export function Field({
  id,
  label,
  error,
  help,
  helpClassName = 'help',
  className = 'field',
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string;
  help?: ReactNode;
  helpClassName?: string;
  className?: string;
  children: (control: FieldControl) => ReactNode;
}) {
  const describedBy = [help ? `${id}-help` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {help ? (
        <p id={`${id}-help`} className={helpClassName}>
          {help}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** A checkbox (or radio) with its label beside it. */
export function CheckField({
  id,
  label,
  checked,
  onChange,
  type = 'checkbox',
  name,
  disabled,
  describedBy,
}: {
  id: string;
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  type?: 'checkbox' | 'radio';
  name?: string;
  disabled?: boolean;
  describedBy?: string;
}) {
  return (
    <div className="field-check">
      <input
        id={id}
        type={type}
        name={name}
        checked={checked}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/** Several lines of text (a summary, a fact, a list one item per line). */
export function TextArea({
  value,
  onChange,
  ...control
}: FieldControl & {
  value: string;
  onChange: (value: string) => void;
  rows: number;
  maxLength?: number;
}) {
  return <textarea {...control} value={value} onChange={(e) => onChange(e.target.value)} />;
}

/** A salience between 0 and 1, in steps of 0.05. */
export function SalienceInput({
  value,
  onChange,
  ...control
}: FieldControl & { value: string; onChange: (value: string) => void }) {
  return (
    <input
      {...control}
      type="number"
      min={0}
      max={1}
      step={0.05}
      inputMode="decimal"
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/**
 * A row of tabs that controls one panel (the WAI-ARIA tabs pattern): the arrow keys move to the
 * next or previous tab, and only the chosen tab is a stop of the Tab key.
 */
export function Tabs<T extends string>({
  idPrefix,
  label,
  tabs,
  selected,
  onSelect,
  panelId,
}: {
  /** Tab ids are `${idPrefix}-${tab.id}`, for the panel's aria-labelledby. */
  idPrefix: string;
  label: string;
  tabs: readonly { id: T; label: string }[];
  selected: T;
  onSelect: (id: T) => void;
  panelId: string;
}) {
  return (
    <div
      className="tabs"
      role="tablist"
      aria-label={label}
      onKeyDown={(e) => {
        if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
        const i = tabs.findIndex((t) => t.id === selected);
        const next = tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]!;
        onSelect(next.id);
        requestAnimationFrame(() => document.getElementById(`${idPrefix}-${next.id}`)?.focus());
      }}
    >
      {tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          id={`${idPrefix}-${t.id}`}
          aria-selected={selected === t.id}
          aria-controls={panelId}
          tabIndex={selected === t.id ? 0 : -1}
          className="tab"
          onClick={() => onSelect(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
