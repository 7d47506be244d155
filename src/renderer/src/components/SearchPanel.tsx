import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { SearchScope } from '../../../shared/api.ts';
import { useApi } from '../api/ApiContext.tsx';
import { formatDate } from '../format.ts';
import { Badge, EmptyState, ErrorBox } from './ui.tsx';

export function SearchPanel({ agentId }: { agentId: string }) {
  const api = useApi();
  const id = useId();
  const [query, setQuery] = useState('');
  const [scope, setScope] = useState<SearchScope>('pinned');
  const [days, setDays] = useState('');
  const search = useMutation({
    mutationFn: () =>
      api.search({
        agent_id: agentId,
        scope,
        query,
        top_k: 20,
        days: days ? Number(days) : undefined,
      }),
  });
  return (
    <div className="stack">
      <form
        className="toolbar"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          if (query.trim()) search.mutate();
        }}
      >
        <div className="field field-inline grow">
          <label htmlFor={`${id}-q`}>Search</label>
          <input
            id={`${id}-q`}
            type="search"
            value={query}
            placeholder="What do you want to find?"
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
        <div className="field field-inline">
          <label htmlFor={`${id}-scope`}>Scope</label>
          <select
            id={`${id}-scope`}
            value={scope}
            onChange={(e) => setScope(e.target.value as SearchScope)}
          >
            <option value="pinned">Pinned facts</option>
            <option value="episodes">Episodes</option>
            <option value="transcript">Transcript</option>
          </select>
        </div>
        <div className="field field-inline">
          <label htmlFor={`${id}-days`}>Within</label>
          <select id={`${id}-days`} value={days} onChange={(e) => setDays(e.target.value)}>
            <option value="">any time</option>
            <option value="1">1 day</option>
            <option value="7">7 days</option>
            <option value="30">30 days</option>
            <option value="365">1 year</option>
          </select>
        </div>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!query.trim() || search.isPending}
        >
          Search
        </button>
      </form>
      <ErrorBox error={search.error} />
      {search.data ? (
        search.data.results.length === 0 ? (
          <EmptyState>Nothing found.</EmptyState>
        ) : (
          <ol className="item-list" aria-label="Search results">
            {search.data.results.map((r) => (
              <li key={`${r.scope}-${r.id}`} className="item">
                <p className="item-content pre-wrap">{r.content}</p>
                <div className="item-meta">
                  <Badge>{r.scope}</Badge>
                  <span>score {r.score.toFixed(3)}</span>
                  <span>{formatDate(r.created_at)}</span>
                </div>
              </li>
            ))}
          </ol>
        )
      ) : null}
    </div>
  );
}
