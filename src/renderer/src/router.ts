// A tiny hash router: `#/memory?agent=a&tab=pinned`. Hash routes never collide with the
// API paths the same server answers (/agents, /memory/...), and work from file:// in Electron.
import { useCallback, useSyncExternalStore } from 'react';

export const PAGES = [
  { id: 'overview', label: 'Overview' },
  { id: 'agents', label: 'Agents' },
  { id: 'memory', label: 'Memory' },
  { id: 'activity', label: 'Activity' },
  { id: 'trash', label: 'Trash' },
  { id: 'consolidation', label: 'Consolidation' },
  { id: 'settings', label: 'Settings' },
  { id: 'diagnostics', label: 'Diagnostics' },
] as const;
export type PageId = (typeof PAGES)[number]['id'];

export interface Route {
  page: PageId;
  params: URLSearchParams;
}

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#\/?/, '');
  const [path = '', search = ''] = raw.split('?', 2);
  const page = PAGES.find((p) => p.id === path)?.id ?? 'overview';
  return { page, params: new URLSearchParams(search) };
}

export function routeHref(page: PageId, params?: Record<string, string | undefined>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) if (v) sp.set(k, v);
  const s = sp.toString();
  return `#/${page}${s ? `?${s}` : ''}`;
}

function subscribe(cb: () => void): () => void {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
}

export function useRoute(): [
  Route,
  (page: PageId, params?: Record<string, string | undefined>) => void,
] {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  const navigate = useCallback((page: PageId, params?: Record<string, string | undefined>) => {
    window.location.hash = routeHref(page, params);
  }, []);
  return [parseHash(hash), navigate];
}
