// Add or edit a pinned fact. Validated client-side with the same schema the server uses
// (PinnedCreate); server errors are shown as they come.
import { useId, useState } from 'react';
import { PinnedCreate } from '../../../shared/api.ts';
import { errorMessage } from '../api/client.ts';
import { CheckField, Field, FieldError, SalienceInput, TextArea } from './ui.tsx';

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
      <Field id={`${id}-content`} label="Fact" error={errors.content}>
        {(control) => (
          <TextArea {...control} rows={3} maxLength={2000} value={content} onChange={setContent} />
        )}
      </Field>
      <div className="row wrap">
        <Field id={`${id}-salience`} label="Salience (0–1)" error={errors.salience}>
          {(control) => <SalienceInput {...control} value={salience} onChange={setSalience} />}
        </Field>
        <Field
          id={`${id}-tags`}
          label="Tags (comma-separated)"
          error={errors.tags}
          className="field grow"
        >
          {(control) => (
            <input
              {...control}
              type="text"
              value={tags}
              onChange={(e) => setTags(e.target.value)}
            />
          )}
        </Field>
      </div>
      <CheckField
        id={`${id}-pinned`}
        label="Pinned by me (never evicted by consolidation)"
        checked={pinned}
        onChange={setPinned}
      />
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
