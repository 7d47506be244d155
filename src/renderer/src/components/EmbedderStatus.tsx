import type { EmbedderStateDto } from '../../../shared/api.ts';
import { Badge } from './ui.tsx';

const LABEL: Record<EmbedderStateDto['status'], string> = {
  disabled: 'Disabled — keyword search only',
  idle: 'Not loaded yet',
  downloading: 'Downloading',
  loading: 'Loading',
  ready: 'Ready',
  error: 'Error — keyword search only',
};

export function EmbedderStatus({ state }: { state: EmbedderStateDto }) {
  const tone =
    state.status === 'ready'
      ? 'ok'
      : state.status === 'error'
        ? 'error'
        : state.status === 'disabled'
          ? 'neutral'
          : 'warn';
  // Progress may come as a fraction or a percentage.
  const pct =
    state.progress === null
      ? null
      : Math.round(state.progress > 1 ? state.progress : state.progress * 100);
  return (
    <dl className="kv">
      <dt>Model</dt>
      <dd>
        <code>{state.model}</code>
      </dd>
      <dt>State</dt>
      <dd>
        <Badge tone={tone}>{LABEL[state.status]}</Badge>
        {state.dims ? <span className="muted"> {state.dims} dimensions</span> : null}
      </dd>
      {state.status === 'downloading' || state.status === 'loading' ? (
        <>
          <dt>Progress</dt>
          <dd>
            <progress
              max={100}
              value={pct ?? undefined}
              aria-label="Embedding model download progress"
            />{' '}
            {pct !== null ? `${pct}%` : null}
            <p className="muted small">Search uses keywords (FTS5) until the model is ready.</p>
          </dd>
        </>
      ) : null}
      {state.error ? (
        <>
          <dt>Error</dt>
          <dd className="text-error">{state.error}</dd>
        </>
      ) : null}
    </dl>
  );
}
