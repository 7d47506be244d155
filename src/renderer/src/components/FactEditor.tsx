// Add or edit a pinned fact. Validated client-side with the same schema the server uses
// (PinnedCreate); server errors are shown as they come.
import { useId, useState } from 'react';
import { PinnedCreate } from '../../../shared/api.ts';
import { errorMessage } from '../api/client.ts';
import { FieldError } from './ui.tsx';

export interface FactDraft {
  content: string;
  salience: number;
  tags: string[];
  pinned_by_user: boolean;
}

const FactFields = PinnedCreate.omit({ agent_id: true }).required();

type Errors = Partial<Record<'content' | 'salience' | 'tags' | 'form', string>>;

export function parseTags(text: string): string[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

export function FactEditor({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  title,
}: {
  initial?: Partial<FactDraft>;
  submitLabel: string;
  onSubmit: (draft: FactDraft) => Promise<unknown>;
  onCancel?: () => void;
  title?: string;
}) {
  const id = useId();
  const [content, setContent] = useState(initial?.content ?? '');
  const [salience, setSalience] = useState(String(initial?.salience ?? 0.7));
  const [tags, setTags] = useState((initial?.tags ?? []).join(', '));
  const [pinned, setPinned] = useState(initial?.pinned_by_user ?? true);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  async function submit(): Promise<void> {
    const sal = salience.trim() === '' ? Number.NaN : Number(salience);
    const parsed = FactFields.safeParse({
      content,
      salience: sal,
      tags: parseTags(tags),
      pinned_by_user: pinned,
    });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        const key =
          field === 'content' || field === 'salience' || field === 'tags' ? field : 'form';
        if (next[key]) continue;
        next[key] =
          key === 'salience'
            ? 'Salience must be a number between 0 and 1.'
            : key === 'tags'
              ? `Tags: ${issue.message} (at most 20 tags of 1–50 characters).`
              : issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await onSubmit(parsed.data);
    } catch (err) {
      setErrors({ form: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  }

  const err = (k: keyof Errors) => (errors[k] ? `${id}-${k}-error` : undefined);
  return (
    <form
      className="fact-editor stack"
      aria-label={title ?? submitLabel}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {title ? <h3>{title}</h3> : null}
      <div className="field">
        <label htmlFor={`${id}-content`}>Fact</label>
        <textarea
          id={`${id}-content`}
          rows={3}
          value={content}
          maxLength={2000}
          aria-invalid={errors.content ? true : undefined}
          aria-describedby={err('content')}
          onChange={(e) => setContent(e.target.value)}
        />
        <FieldError id={`${id}-content-error`} message={errors.content} />
      </div>
      <div className="row wrap">
        <div className="field">
          <label htmlFor={`${id}-salience`}>Salience (0–1)</label>
          <input
            id={`${id}-salience`}
            type="number"
            min={0}
            max={1}
            step={0.05}
            inputMode="decimal"
            value={salience}
            aria-invalid={errors.salience ? true : undefined}
            aria-describedby={err('salience')}
            onChange={(e) => setSalience(e.target.value)}
          />
          <FieldError id={`${id}-salience-error`} message={errors.salience} />
        </div>
        <div className="field grow">
          <label htmlFor={`${id}-tags`}>Tags (comma-separated)</label>
          <input
            id={`${id}-tags`}
            type="text"
            value={tags}
            aria-invalid={errors.tags ? true : undefined}
            aria-describedby={err('tags')}
            onChange={(e) => setTags(e.target.value)}
          />
          <FieldError id={`${id}-tags-error`} message={errors.tags} />
        </div>
      </div>
      <div className="field-check">
        <input
          id={`${id}-pinned`}
          type="checkbox"
          checked={pinned}
          onChange={(e) => setPinned(e.target.checked)}
        />
        <label htmlFor={`${id}-pinned`}>Pinned by me (never evicted by consolidation)</label>
      </div>
      <FieldError id={`${id}-form-error`} message={errors.form} />
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="btn" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
