// The Core Model choice of the Settings page (DESIGN §6): auto, off or a named model, with what
// each means for the provider in use — free on this computer, and for a remote provider the
// cost in plain words: one extra request per conversation and about how many input tokens,
// computed from the prompt the distiller sends (shared/core-model.ts), never a price.
import {
  distillCostFigures,
  DISTILL_MAX_TRANSCRIPT_CHARS,
  CHARS_PER_TOKEN,
  isLoopbackUrl,
  TYPICAL_CONVERSATION,
  upstreamHost,
} from '../../../shared/core-model.ts';
import type { Settings } from '../../../shared/settings.ts';
import { FieldError } from './ui.tsx';

export type CoreModelMode = Settings['coreModelMode'];

const n = (value: number) => value.toLocaleString('en-US');

/** What one distillation costs on a provider that bills per token, as a sentence. */
export function distillCostSentence(host: string): string {
  const f = distillCostFigures();
  return (
    `One extra request per conversation to ${host}, about ${n(f.typicalTokens)} input tokens ` +
    `for a typical conversation (${TYPICAL_CONVERSATION.exchanges} exchanges, about ` +
    `${n(f.typicalChars)} characters): the instructions (about ${n(f.promptTokens)} tokens) ` +
    `plus the conversation at about ${CHARS_PER_TOKEN} characters per token, never more than ` +
    `about ${n(f.maxTokens)} tokens since only the newest ${n(DISTILL_MAX_TRANSCRIPT_CHARS)} ` +
    `characters are sent; the digest it answers adds a few hundred output tokens.`
  );
}

/** What the chosen mode does with the provider in use (null: no provider yet). */
export function coreModelExplanation(
  mode: CoreModelMode,
  model: string,
  upstreamUrl: string | null,
): string {
  const fallback =
    'If the model answers something that is not a digest, or cannot be reached, the built-in ' +
    'extraction takes over.';
  if (mode === 'off') {
    return (
      'Conversations are distilled by the built-in extraction (facts and a short summary) ' +
      'and no request is ever sent to a model for it.'
    );
  }
  const host = upstreamHost(upstreamUrl);
  if (host === null) {
    return 'No provider is set yet: the built-in extraction distils conversations until one is.';
  }
  const local = isLoopbackUrl(upstreamUrl);
  if (mode === 'auto') {
    if (local) {
      return (
        `Each conversation is distilled by the model it was chatted with, on ${host} (this ` +
        'computer): no extra cost. Conversations that were imported, ingested or left over ' +
        `from before a restart use the built-in extraction. ${fallback}`
      );
    }
    return (
      `${host} is not on this computer, so auto uses the built-in extraction and sends it ` +
      `nothing extra. Name a model to distil there instead. ${distillCostSentence(host)}`
    );
  }
  const name = model.trim() || 'The named model';
  if (local) {
    return `${name} on ${host} (this computer) distils every conversation: no extra cost. ${fallback}`;
  }
  return `${name} on ${host} distils every conversation. ${distillCostSentence(host)} ${fallback}`;
}

export function CoreModelField({
  id,
  mode,
  model,
  models,
  upstreamUrl,
  error,
  onMode,
  onModel,
}: {
  id: string;
  mode: CoreModelMode;
  model: string;
  /** Model ids offered (from /v1/models). */
  models?: string[];
  /** The upstream requests go to, or null when none is set. */
  upstreamUrl: string | null;
  error?: string;
  onMode: (mode: CoreModelMode) => void;
  onModel: (model: string) => void;
}) {
  const option = (value: CoreModelMode, label: string) => (
    <div className="field-check">
      <input
        id={`${id}-${value}`}
        type="radio"
        name={`${id}-mode`}
        value={value}
        checked={mode === value}
        aria-describedby={`${id}-help`}
        onChange={() => onMode(value)}
      />
      <label htmlFor={`${id}-${value}`}>{label}</label>
    </div>
  );
  return (
    <div className="field" role="radiogroup" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`}>
        <strong>Core Model</strong>{' '}
        <span className="muted small">distils conversations into memory</span>
      </span>
      {option('auto', 'Auto: the model you chat with, when it runs on this computer (free)')}
      {option('off', 'Off: the built-in extraction only, never a model request')}
      {option('explicit', 'This model:')}
      <input
        id={`${id}-name`}
        list={`${id}-models`}
        value={model}
        aria-label="Core Model name"
        placeholder="e.g. llama3.2:3b"
        disabled={mode !== 'explicit'}
        aria-invalid={error ? true : undefined}
        aria-describedby={[`${id}-help`, error ? `${id}-error` : ''].filter(Boolean).join(' ')}
        onChange={(e) => onModel(e.target.value)}
      />
      <datalist id={`${id}-models`}>
        {(models ?? []).map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      <FieldError id={`${id}-error`} message={error} />
      <p id={`${id}-help`} className="help" aria-live="polite">
        {coreModelExplanation(mode, model, upstreamUrl)}
        {mode === 'explicit' ? ' A named model also answers the "Ask the Core Model" gate.' : ''}
      </p>
    </div>
  );
}
