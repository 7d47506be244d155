// Every setting of DESIGN §11, with the ranges of the shared schema enforced before sending
// and the server's answer (validation errors included) shown as it comes.
import { useId, useState } from 'react';
import { Settings, SettingsPatch, type PublicSettings } from '../../../shared/settings.ts';
import { errorMessage } from '../api/client.ts';
import { CoreModelField } from './CoreModelField.tsx';
import { CheckField, Field, FieldError, Notice, SelectField } from './ui.tsx';

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

const GATE_LABELS: Record<Settings['relevanceGateMode'], string> = {
  heuristic: 'Heuristic (fast, default)',
  llm: 'Ask the Core Model',
  off: 'Off (always inject pinned facts)',
};
const EXTRACTION_LABELS: Record<Settings['extractionMode'], string> = {
  sessionEnd: 'When a conversation goes quiet',
  manual: 'Only when asked (ingest)',
};
const BACKEND_LABELS: Record<Settings['embeddingBackend'], string> = {
  transformers: 'On (local embedding model)',
  none: 'Off (keyword search only)',
};

/** The text fields of one provider, as the draft names them. */
const PROVIDER_TEXT_FIELDS: {
  key: 'name' | 'id' | 'baseUrl';
  label: string;
  type?: 'url';
  placeholder?: string;
}[] = [
  { key: 'name', label: 'Name' },
  { key: 'id', label: 'Id' },
  { key: 'baseUrl', label: 'Base URL', type: 'url', placeholder: 'http://127.0.0.1:11434/v1' },
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

  const errorCount = Object.keys(errors).length;
  /** The number fields `which` picks, in their order. */
  const numberFields = (which: (f: (typeof NUMBER_FIELDS)[number]) => boolean) =>
    NUMBER_FIELDS.filter(which).map((f) => (
      <NumberField
        key={f.key}
        id={`${id}-${f.key}`}
        field={f}
        value={draft.numbers[f.key]}
        error={errors[f.key]}
        onChange={(v) => setNumber(f.key, v)}
      />
    ));

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
        <CheckField
          id={`${id}-enabled`}
          label="Memory is on (off: requests pass through unchanged and nothing is recorded)"
          checked={draft.enabled}
          onChange={(on) => set('enabled', on)}
        />
        <div className="grid grid-2">
          <SelectField
            id={`${id}-gate`}
            label="Relevance gate"
            value={draft.relevanceGateMode}
            schema={Settings.shape.relevanceGateMode}
            options={GATE_LABELS}
            onChange={(v) => set('relevanceGateMode', v)}
          />
          <SelectField
            id={`${id}-extraction`}
            label="Distillation"
            value={draft.extractionMode}
            schema={Settings.shape.extractionMode}
            options={EXTRACTION_LABELS}
            onChange={(v) => set('extractionMode', v)}
          />
          {numberFields((f) => f.key !== 'port' && !f.deleting)}
        </div>
      </fieldset>

      <fieldset>
        <legend>Deleting and activity</legend>
        <div className="grid grid-2">{numberFields((f) => f.deleting === true)}</div>
        <CheckField
          id={`${id}-activity-lines`}
          label="Keep the text of injected lines in the Activity view"
          checked={draft.activityKeepLines}
          describedBy={`${id}-activity-lines-help`}
          onChange={(on) => set('activityKeepLines', on)}
        />
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
          <SelectField
            id={`${id}-backend`}
            label="Semantic search"
            value={draft.embeddingBackend}
            schema={Settings.shape.embeddingBackend}
            options={BACKEND_LABELS}
            describedBy={`${id}-embeddings-help`}
            onChange={(v) => set('embeddingBackend', v)}
          />
          <Field id={`${id}-embeddingModel`} label="Embedding model" error={errors.embeddingModel}>
            {(control) => (
              <input
                {...control}
                aria-describedby={[`${id}-embeddings-help`, control['aria-describedby']]
                  .filter(Boolean)
                  .join(' ')}
                value={draft.embeddingModel}
                onChange={(e) => set('embeddingModel', e.target.value)}
              />
            )}
          </Field>
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
              {PROVIDER_TEXT_FIELDS.map((f) => (
                <Field
                  key={f.key}
                  id={`${id}-p${i}-${f.key}`}
                  label={f.label}
                  error={errors[`providers.${i}.${f.key}`]}
                >
                  {(control) => (
                    <input
                      {...control}
                      type={f.type}
                      placeholder={f.placeholder}
                      value={p[f.key]}
                      onChange={(e) => setProvider(i, { [f.key]: e.target.value })}
                    />
                  )}
                </Field>
              ))}
            </div>
            <div className="row wrap align-end">
              <Field id={`${id}-p${i}-key`} label="API key" className="field grow">
                {(control) => (
                  <input
                    {...control}
                    type="password"
                    autoComplete="off"
                    value={p.apiKey}
                    disabled={p.clearKey}
                    placeholder={
                      p.apiKeySet ? 'Stored — type to replace' : 'None (local servers need none)'
                    }
                    onChange={(e) => setProvider(i, { apiKey: e.target.value })}
                  />
                )}
              </Field>
              {p.apiKeySet ? (
                <CheckField
                  id={`${id}-p${i}-clear`}
                  label="Remove stored key"
                  checked={p.clearKey}
                  onChange={(on) => setProvider(i, { clearKey: on, apiKey: '' })}
                />
              ) : null}
              <CheckField
                id={`${id}-p${i}-active`}
                type="radio"
                name={`${id}-active`}
                label="Active"
                checked={draft.activeProviderId === p.id && p.id !== ''}
                onChange={() => set('activeProviderId', p.id)}
              />
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
          {numberFields((f) => f.key === 'port')}
          <CheckField
            id={`${id}-login`}
            label={`Launch at login${desktop ? '' : ' (desktop app only)'}`}
            checked={draft.launchAtLogin}
            onChange={(on) => set('launchAtLogin', on)}
          />
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
  onChange,
}: {
  id: string;
  field: (typeof NUMBER_FIELDS)[number];
  value: string;
  error: string | undefined;
  onChange: (v: string) => void;
}) {
  return (
    <Field id={id} label={field.label} help={field.help} error={error}>
      {(control) => (
        <input
          {...control}
          type="number"
          inputMode={field.step ? 'decimal' : 'numeric'}
          step={field.step ?? 1}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
