// TanStack Query keys, in one place so mutations invalidate exactly what they change.
export const qk = {
  health: ['health'] as const,
  agents: ['agents'] as const,
  stats: ['stats'] as const,
  settings: ['settings'] as const,
  models: ['models'] as const,
  diagnostics: ['diagnostics'] as const,
  runs: ['consolidation-runs'] as const,
  trash: ['trash'] as const,
  activity: (agentId: string) => ['activity', agentId] as const,
  agent: (agentId: string) => ['agent', agentId] as const,
  /** Everything under one agent's memory (pinned, episodes, identity, transcript). */
  memory: (agentId: string) => ['memory', agentId] as const,
  pinned: (agentId: string, q: object) => ['memory', agentId, 'pinned', q] as const,
  episodes: (agentId: string, q: object) => ['memory', agentId, 'episodes', q] as const,
  transcript: (agentId: string, q: object) => ['memory', agentId, 'transcript', q] as const,
  identity: (agentId: string) => ['memory', agentId, 'identity'] as const,
  search: (agentId: string, q: object) => ['memory', agentId, 'search', q] as const,
};
