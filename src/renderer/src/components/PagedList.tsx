// What the memory lists and the trash share: a word filter that waits for the typing to stop,
// a page of rows that stays on screen while the next one loads, and the list itself with its
// loading and empty states and the pager under it.
import {
  keepPreviousData,
  useQuery,
  useQueryClient,
  type QueryKey,
  type UseQueryResult,
} from '@tanstack/react-query';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { qk } from '../api/keys.ts';
import { FilterField, Pager, QueryBody } from './ui.tsx';

/** How long the filter waits after the last keystroke before it asks the server. */
const FILTER_DELAY_MS = 250;

/** A list's word filter and page: any change of the filter goes back to the first page. */
export function useListFilter() {
  const [text, setText] = useState('');
  const [words, setWords] = useState('');
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    const t = setTimeout(() => setWords(text.trim()), FILTER_DELAY_MS);
    return () => clearTimeout(t);
  }, [text]);
  return {
    /** What the field shows. */
    text,
    /** What the server is asked for (trimmed, once typing pauses). */
    words,
    offset,
    setOffset,
    setText: (next: string) => {
      setText(next);
      setOffset(0);
    },
    firstPage: () => setOffset(0),
  };
}

export type ListFilter = ReturnType<typeof useListFilter>;

/** The head of a list: its word filter, then whatever else narrows it. */
export function ListToolbar({
  filter,
  placeholder,
  children,
}: {
  filter: ListFilter;
  placeholder: string;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <div className="toolbar" role="search">
      <FilterField
        id={`${id}-q`}
        value={filter.text}
        placeholder={placeholder}
        onChange={filter.setText}
      />
      {children}
    </div>
  );
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** One page of a list; the previous page stays shown while the next one loads. */
export function usePagedQuery<T>(
  queryKey: QueryKey,
  fetchPage: () => Promise<Page<T>>,
): UseQueryResult<Page<T>> {
  return useQuery({ queryKey, queryFn: fetchPage, placeholderData: keepPreviousData });
}

/** Refreshes what an edit of one agent's memory changes (its lists, the counts). */
export function useAfterEdit(): (agentId: string) => void {
  const queryClient = useQueryClient();
  return (agentId) => {
    void queryClient.invalidateQueries({ queryKey: qk.memory(agentId) });
    void queryClient.invalidateQueries({ queryKey: qk.agents });
    void queryClient.invalidateQueries({ queryKey: qk.stats });
  };
}

export interface PagedListProps<T> {
  list: UseQueryResult<Page<T>>;
  /** Names the list and its pager for screen readers. */
  label: string;
  empty: ReactNode;
  limit: number;
  offset: number;
  onPage: (offset: number) => void;
  className?: string;
  /** One row, as an `<li>`. */
  children: (item: T) => ReactNode;
}

/** The rows of one page, or why there are none, then the pager. */
export function PagedList<T>({
  list,
  label,
  empty,
  limit,
  offset,
  onPage,
  className = 'item-list',
  children,
}: PagedListProps<T>) {
  return (
    <>
      <QueryBody query={list} isEmpty={(p) => p.items.length === 0} empty={empty}>
        {(p) => (
          <ul className={className} aria-label={label}>
            {p.items.map(children)}
          </ul>
        )}
      </QueryBody>
      <Pager
        total={list.data?.total ?? 0}
        limit={limit}
        offset={offset}
        onChange={onPage}
        label={label}
      />
    </>
  );
}
