// Every setting of DESIGN §11, with the ranges of the shared schema enforced before sending
// and the server's answer (validation errors included) shown as it comes.
import { useId, useState } from 'react';
import { Settings, SettingsPatch, type PublicSettings } from '../../../shared/settings.ts';
import { errorMessage } from '../api/client.ts';
import { CoreModelField } from './CoreModelField.tsx';
import { FieldError, Notice } from './ui.tsx';

type NumberKey =
  | 'memoryBudgetTokens'
  | 'summaryDebounceSeconds'
  | 'consolidationIntervalHours'
  | 'salienceFloor'
  | 'episodeRetentionDays'
  | 'transcriptRetentionDays'
  | 'trashDays'
  | 'port';

interface ProviderDraft {
  /** Stable key for React; for existing providers equals `id`. */
  key: string;
  id: string;
  name: string;
  baseUrl: string;
  /** A new key typed by the user; '' = keep the stored one. */
  apiKey: string;
  apiKeySet: boolean;
  clearKey: boolean;
}

interface Draft {
  enabled: boolean;
  embeddingBackend: Settings['embeddingBackend'];
  embeddingModel: string;
  extractionMode: Settings['extractionMode'];
  relevanceGateMode: Settings['relevanceGateMode'];
  numbers: Record<NumberKey, string>;
  providers: ProviderDraft[];
  activeProviderId: string;
  coreModelMode: Settings['coreModelMode'];
  /** The named Core Model; kept while another mode is chosen, sent only with `explicit`. */
  coreModel: string;
  launchAtLogin: boolean;
  activityKeepLines: boolean;
}

const NUMBER_FIELDS: {
  key: NumberKey;
  label: string;
  help: string;
  step?: number;
  /** Shown under "Deleting and activity" instead of "Memory". */
  deleting?: boolean;
}[] = [
  {
    key: 'memoryBudgetTokens',
    label: 'Memory budget (tokens)',
    help: 'How much memory may be injected into one request (100–4000).',
  },
  {
    key: 'summaryDebounceSeconds',
    label: 'Distil after (seconds idle)',
    help: 'A conversation is distilled after this much quiet (10–3600).',
  },
  {
    key: 'consolidationIntervalHours',
    label: 'Consolidate every (hours)',
    help: 'How often consolidation runs on its own (1–168).',
  },
  {
    key: 'salienceFloor',
    label: 'Salience floor',
    help: 'Facts below this salience and unused for 30 days are evicted (0–1).',
    step: 0.05,
  },
  {
    key: 'episodeRetentionDays',
    label: 'Keep episodes (days)',
    help: 'Older ones are pruned; 0 keeps everything (0–3650).',
  },
  {
    key: 'transcriptRetentionDays',
    label: 'Keep the transcript (days)',
    help: 'Messages Cairn stored longer ago than this are pruned; 0 keeps them all (0–3650).',
    deleting: true,
  },
  {
    key: 'trashDays',
    label: 'Keep deleted memory in the trash (days)',
    help: 'Until then anything deleted can be restored from the Trash page (1–365).',
    deleting: true,
  },
  {
    key: 'port',
    label: 'Port',
    help: 'The local port of the server (1024–65535). Takes effect after a restart.',
  },
];

function toDraft(s: PublicSettings): Draft {
  return {
    enabled: s.enabled,
    embeddingBackend: s.embeddingBackend,
    embeddingModel: s.embeddingModel,
    extractionMode: s.extractionMode,
    relevanceGateMode: s.relevanceGateMode,
    numbers: {
      memoryBudgetTokens: String(s.memoryBudgetTokens),
      summaryDebounceSeconds: String(s.summaryDebounceSeconds),
      consolidationIntervalHours: String(s.consolidationIntervalHours),
      salienceFloor: String(s.salienceFloor),
      episodeRetentionDays: String(s.episodeRetentionDays),
      transcriptRetentionDays: String(s.transcriptRetentionDays),
      trashDays: String(s.trashDays),
      port: String(s.port),
    },
    providers: s.providers.map((p) => ({
      key: p.id,
      id: p.id,
      name: p.name,
      baseUrl: p.baseUrl,
      apiKey: '',
      apiKeySet: p.apiKeySet,
      clearKey: false,
    })),
    activeProviderId: s.activeProviderId ?? '',
    coreModelMode: s.coreModelMode,
    coreModel: s.coreModel ?? '',
    launchAtLogin: s.launchAtLogin,
    activityKeepLines: s.activityKeepLines,
  };
}

function num(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

/** The patch of what changed, or the validation errors by field. */
export function buildPatch(
  saved: PublicSettings,
  draft: Draft,
): { patch: SettingsPatch; errors: Record<string, string> } {
  const candidate: Record<string, unknown> = {
    enabled: draft.enabled,
    embeddingBackend: draft.embeddingBackend,
    embeddingModel: draft.embeddingModel,
    extractionMode: draft.extractionMode,
    relevanceGateMode: draft.relevanceGateMode,
    activeProviderId: draft.activeProviderId || null,
    coreModelMode: draft.coreModelMode,
    coreModel: draft.coreModelMode === 'explicit' ? draft.coreModel.trim() || null : null,
    launchAtLogin: draft.launchAtLogin,
    activityKeepLines: draft.activityKeepLines,
  };
  for (const f of NUMBER_FIELDS) candidate[f.key] = num(draft.numbers[f.key]);
  const providersChanged =
    draft.providers.length !== saved.providers.length ||
    draft.providers.some((p, i) => {
      const s = saved.providers[i];
      return (
        !s ||
        s.id !== p.id ||
        s.name !== p.name ||
        s.baseUrl !== p.baseUrl ||
        p.apiKey !== '' ||
        p.clearKey
      );
    });
  if (providersChanged) {
    candidate.providers = draft.providers.map((p) => ({
      id: p.id.trim(),
      name: p.name.trim(),
      baseUrl: p.baseUrl.trim(),
      // Omitted keeps the stored key; '' clears it (the server's write-only contract).
      ...(p.clearKey ? { apiKey: '' } : p.apiKey ? { apiKey: p.apiKey } : {}),
    }));
  }
  const patch: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(candidate)) {
    if (k === 'providers' || (saved as Record<string, unknown>)[k] !== v) patch[k] = v;
  }
  const parsed = SettingsPatch.safeParse(patch);
  const errors: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.');
      if (!errors[key]) errors[key] = friendly(issue.path, issue.message);
    }
  }
  if (
    candidate.activeProviderId &&
    !draft.providers.some((p) => p.id.trim() === candidate.activeProviderId)
  ) {
    errors.activeProviderId = 'Choose one of the providers below.';
  }
  if (draft.coreModelMode === 'explicit' && draft.coreModel.trim() === '') {
    errors.coreModel = 'Name the model, or choose Auto or Off.';
  }
  const ids = draft.providers.map((p) => p.id.trim());
  ids.forEach((pid, i) => {
    if (pid && ids.indexOf(pid) !== i) errors[`providers.${i}.id`] = 'Two providers have this id.';
  });
  // Send the keys as built (validated above): the parsed value would carry every default.
  return { patch: patch as SettingsPatch, errors };
}

/** The base URL of the provider chosen as active in the form, or null. */
function activeProviderUrl(draft: Draft): string | null {
  const active = draft.providers.find((p) => p.id !== '' && p.id === draft.activeProviderId);
  return active?.baseUrl.trim() || null;
}

function friendly(path: PropertyKey[], message: string): string {
  const key = String(path[0]);
  // The shared schema names the field as the API does; the form calls it by its label.
  if (key === 'providers' && path.at(-1) === 'baseUrl') {
    return message.replace(/^baseUrl /, 'Base URL ');
  }
  const shape = Settings.shape as Record<string, unknown>;
  const field = NUMBER_FIELDS.find((f) => f.key === key);
  if (field && shape[key]) {
    const range = /\(([^)]*)\)\.?$/.exec(field.help)?.[1];
    return `${field.label} must be ${
      key === 'salienceFloor' ? 'a number' : 'a whole number'
    } in ${range ?? 'range'}.`;
  }
  return message;
}

export function SettingsForm({
  settings,
  onSave,
  models,
  desktop,
  upstreamUrl,
}: {
  settings: PublicSettings;
  onSave: (patch: SettingsPatch) => Promise<PublicSettings>;
  /** Model ids offered for the Core Model (from /v1/models). */
  models?: string[];
  /**
   * The upstream Cairn was started with (--upstream), which wins over the providers; without
   * it the Core Model field reads the active provider of the form.
   */
  upstreamUrl?: string | null;
  /** Launch at login only means something in the desktop app. */
  desktop?: boolean;
}) {
  const id = useId();
  const [saved, setSaved] = useState(settings);
  const [draft, setDraft] = useState<Draft>(() => toDraft(settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setDone(false);
  };
  const setNumber = (k: NumberKey, v: string) => {
    setDraft((d) => ({ ...d, numbers: { ...d.numbers, [k]: v } }));
    setDone(false);
  };
  const setProvider = (i: number, change: Partial<ProviderDraft>) => {
    setDraft((d) => ({
      ...d,
      providers: d.providers.map((p, j) => (j === i ? { ...p, ...change } : p)),
    }));
    setDone(false);
  };

  async function submit(): Promise<void> {
    setServerError(null);
    setDone(false);
    const { patch, errors: errs } = buildPatch(saved, draft);
    setErrors(errs);
    if (Object.keys(errs).length > 0) return;
    if (Object.keys(patch).length === 0) {
      setDone(true);
      return;
    }
    setBusy(true);
    try {
      const next = await onSave(patch);
      setSaved(next);
      setDraft(toDraft(next));
      setDone(true);
    } catch (err) {
      setServerError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const describedBy = (key: string, help?: boolean) =>
    [help ? `${id}-${key}-help` : '', errors[key] ? `${id}-${key}-error` : '']
      .filter(Boolean)
      .join(' ') || undefined;
  const errorCount = Object.keys(errors).length;

  return (
    <form
      className="settings-form stack"
      aria-label="Settings"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <fieldset>
        <legend>Memory</legend>
        <div className="field-check">
          <input
            id={`${id}-enabled`}
            type="checkbox"
            checked={draft.enabled}
            onChange={(e) => set('enabled', e.target.checked)}
          />
          <label htmlFor={`${id}-enabled`}>
            Memory is on (off: requests pass through unchanged and nothing is recorded)
          </label>
        </div>
        <div className="grid grid-2">
          <div className="field">
            <label htmlFor={`${id}-gate`}>Relevance gate</label>
            <select
              id={`${id}-gate`}
              value={draft.relevanceGateMode}
              onChange={(e) =>
                set('relevanceGateMode', e.target.value as Draft['relevanceGateMode'])
              }
            >
              <option value="heuristic">Heuristic (fast, default)</option>
              <option value="llm">Ask the Core Model</option>
              <option value="off">Off (always inject pinned facts)</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-extraction`}>Distillation</label>
            <select
              id={`${id}-extraction`}
              value={draft.extractionMode}
              onChange={(e) => set('extractionMode', e.target.value as Draft['extractionMode'])}
            >
              <option value="sessionEnd">When a conversation goes quiet</option>
              <option value="manual">Only when asked (ingest)</option>
            </select>
          </div>
          {NUMBER_FIELDS.filter((f) => f.key !== 'port' && !f.deleting).map((f) => (
            <NumberField
              key={f.key}
              id={`${id}-${f.key}`}
              field={f}
              value={draft.numbers[f.key]}
              error={errors[f.key]}
              describedBy={describedBy(f.key, true)}
              onChange={(v) => setNumber(f.key, v)}
            />
          ))}
        </div>
      </fieldset>

      <fieldset>
        <legend>Deleting and activity</legend>
        <div className="grid grid-2">
          {NUMBER_FIELDS.filter((f) => f.deleting).map((f) => (
            <NumberField
              key={f.key}
              id={`${id}-${f.key}`}
              field={f}
              value={draft.numbers[f.key]}
              error={errors[f.key]}
              describedBy={describedBy(f.key, true)}
              onChange={(v) => setNumber(f.key, v)}
            />
          ))}
        </div>
        <div className="field-check">
          <input
            id={`${id}-activity-lines`}
            type="checkbox"
            checked={draft.activityKeepLines}
            aria-describedby={`${id}-activity-lines-help`}
            onChange={(e) => set('activityKeepLines', e.target.checked)}
          />
          <label htmlFor={`${id}-activity-lines`}>
            Keep the text of injected lines in the Activity view
          </label>
        </div>
        <p className="muted small" id={`${id}-activity-lines-help`}>
          Off: the Activity view records only where each injected line came from (which fact,
          episode or message), never its words. On: it also keeps the lines as they were sent,
          inside the encrypted database; turning it off again deletes the kept text.
        </p>
      </fieldset>

      <fieldset>
        <legend>Embeddings</legend>
        <p className="muted small" id={`${id}-embeddings-help`}>
          The embedding model is loaded when Cairn starts: changes here take effect after a restart.
          Until a model is ready, search uses keywords only.
        </p>
        <div className="grid grid-2">
          <div className="field">
            <label htmlFor={`${id}-backend`}>Semantic search</label>
            <select
              id={`${id}-backend`}
              value={draft.embeddingBackend}
              aria-describedby={`${id}-embeddings-help`}
              onChange={(e) => set('embeddingBackend', e.target.value as Draft['embeddingBackend'])}
            >
              <option value="transformers">On (local embedding model)</option>
              <option value="none">Off (keyword search only)</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-embeddingModel`}>Embedding model</label>
            <input
              id={`${id}-embeddingModel`}
              value={draft.embeddingModel}
              aria-invalid={errors.embeddingModel ? true : undefined}
              aria-describedby={[`${id}-embeddings-help`, describedBy('embeddingModel')]
                .filter(Boolean)
                .join(' ')}
              onChange={(e) => set('embeddingModel', e.target.value)}
            />
            <FieldError id={`${id}-embeddingModel-error`} message={errors.embeddingModel} />
          </div>
        </div>
      </fieldset>

      <fieldset>
        <legend>Model providers</legend>
        <p className="muted small">
          Requests are forwarded to the active provider. API keys are stored encrypted and never
          shown again.
        </p>
        {draft.providers.length === 0 ? <p className="empty">No provider yet.</p> : null}
        {draft.providers.map((p, i) => (
          <div
            className="provider"
            key={p.key}
            role="group"
            aria-label={`Provider ${p.name || i + 1}`}
          >
            <div className="grid grid-3">
              <div className="field">
                <label htmlFor={`${id}-p${i}-name`}>Name</label>
                <input
                  id={`${id}-p${i}-name`}
                  value={p.name}
                  aria-invalid={errors[`providers.${i}.name`] ? true : undefined}
                  aria-describedby={describedBy(`providers.${i}.name`)}
                  onChange={(e) => setProvider(i, { name: e.target.value })}
                />
                <FieldError
                  id={`${id}-providers.${i}.name-error`}
                  message={errors[`providers.${i}.name`]}
                />
              </div>
              <div className="field">
                <label htmlFor={`${id}-p${i}-id`}>Id</label>
                <input
                  id={`${id}-p${i}-id`}
                  value={p.id}
                  aria-invalid={errors[`providers.${i}.id`] ? true : undefined}
                  aria-describedby={describedBy(`providers.${i}.id`)}
                  onChange={(e) => setProvider(i, { id: e.target.value })}
                />
                <FieldError
                  id={`${id}-providers.${i}.id-error`}
                  message={errors[`providers.${i}.id`]}
                />
              </div>
              <div className="field">
                <label htmlFor={`${id}-p${i}-url`}>Base URL</label>
                <input
                  id={`${id}-p${i}-url`}
                  type="url"
                  value={p.baseUrl}
                  placeholder="http://127.0.0.1:11434/v1"
                  aria-invalid={errors[`providers.${i}.baseUrl`] ? true : undefined}
                  aria-describedby={describedBy(`providers.${i}.baseUrl`)}
                  onChange={(e) => setProvider(i, { baseUrl: e.target.value })}
                />
                <FieldError
                  id={`${id}-providers.${i}.baseUrl-error`}
                  message={errors[`providers.${i}.baseUrl`]}
                />
              </div>
            </div>
            <div className="row wrap align-end">
              <div className="field grow">
                <label htmlFor={`${id}-p${i}-key`}>API key</label>
                <input
                  id={`${id}-p${i}-key`}
                  type="password"
                  autoComplete="off"
                  value={p.apiKey}
                  disabled={p.clearKey}
                  placeholder={
                    p.apiKeySet ? 'Stored — type to replace' : 'None (local servers need none)'
                  }
                  onChange={(e) => setProvider(i, { apiKey: e.target.value })}
                />
              </div>
              {p.apiKeySet ? (
                <div className="field-check">
                  <input
                    id={`${id}-p${i}-clear`}
                    type="checkbox"
                    checked={p.clearKey}
                    onChange={(e) => setProvider(i, { clearKey: e.target.checked, apiKey: '' })}
                  />
                  <label htmlFor={`${id}-p${i}-clear`}>Remove stored key</label>
                </div>
              ) : null}
              <div className="field-check">
                <input
                  id={`${id}-p${i}-active`}
                  type="radio"
                  name={`${id}-active`}
                  checked={draft.activeProviderId === p.id && p.id !== ''}
                  onChange={() => set('activeProviderId', p.id)}
                />
                <label htmlFor={`${id}-p${i}-active`}>Active</label>
              </div>
              <button
                type="button"
                className="btn btn-small btn-danger-outline"
                onClick={() => {
                  setDraft((d) => ({
                    ...d,
                    providers: d.providers.filter((_, j) => j !== i),
                    activeProviderId: d.activeProviderId === p.id ? '' : d.activeProviderId,
                  }));
                }}
              >
                Remove provider
              </button>
            </div>
          </div>
        ))}
        <FieldError id={`${id}-activeProviderId-error`} message={errors.activeProviderId} />
        <div>
          <button
            type="button"
            className="btn"
            onClick={() => {
              const n = draft.providers.length + 1;
              const pid = `provider-${n}`;
              setDraft((d) => ({
                ...d,
                providers: [
                  ...d.providers,
                  {
                    key: `new-${Date.now()}-${n}`,
                    id: pid,
                    name: '',
                    baseUrl: '',
                    apiKey: '',
                    apiKeySet: false,
                    clearKey: false,
                  },
                ],
                activeProviderId: d.activeProviderId || pid,
              }));
            }}
          >
            Add provider
          </button>
        </div>
        <CoreModelField
          id={`${id}-core`}
          mode={draft.coreModelMode}
          model={draft.coreModel}
          models={models}
          upstreamUrl={upstreamUrl ?? activeProviderUrl(draft)}
          error={errors.coreModel}
          onMode={(mode) => set('coreModelMode', mode)}
          onModel={(name) => set('coreModel', name)}
        />
      </fieldset>

      <fieldset>
        <legend>App</legend>
        <div className="grid grid-2">
          {NUMBER_FIELDS.filter((f) => f.key === 'port').map((f) => (
            <NumberField
              key={f.key}
              id={`${id}-${f.key}`}
              field={f}
              value={draft.numbers[f.key]}
              error={errors[f.key]}
              describedBy={describedBy(f.key, true)}
              onChange={(v) => setNumber(f.key, v)}
            />
          ))}
          <div className="field-check">
            <input
              id={`${id}-login`}
              type="checkbox"
              checked={draft.launchAtLogin}
              onChange={(e) => set('launchAtLogin', e.target.checked)}
            />
            <label htmlFor={`${id}-login`}>
              Launch at login{desktop ? '' : ' (desktop app only)'}
            </label>
          </div>
        </div>
      </fieldset>

      <div className="form-footer" aria-live="polite">
        {errorCount > 0 ? (
          <p className="field-error" role="alert">
            {errorCount === 1
              ? 'One field needs attention.'
              : `${errorCount} fields need attention.`}
          </p>
        ) : null}
        {serverError ? (
          <div className="alert alert-error" role="alert">
            The server refused the settings: {serverError}
          </div>
        ) : null}
        {done ? <Notice tone="ok">Settings saved.</Notice> : null}
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save settings'}
          </button>
          <button
            type="button"
            className="btn"
            disabled={busy}
            onClick={() => {
              setDraft(toDraft(saved));
              setErrors({});
              setServerError(null);
            }}
          >
            Discard changes
          </button>
        </div>
      </div>
    </form>
  );
}

function NumberField({
  id,
  field,
  value,
  error,
  describedBy,
  onChange,
}: {
  id: string;
  field: (typeof NUMBER_FIELDS)[number];
  value: string;
  error: string | undefined;
  describedBy: string | undefined;
  onChange: (v: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{field.label}</label>
      <input
        id={id}
        type="number"
        inputMode={field.step ? 'decimal' : 'numeric'}
        step={field.step ?? 1}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-help`} className="help">
        {field.help}
      </p>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
