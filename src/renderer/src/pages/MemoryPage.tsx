import { AgentPicker } from '../components/AgentPicker.tsx';
import { EpisodeList } from '../components/EpisodeList.tsx';
import { IdentityEditor } from '../components/IdentityEditor.tsx';
import { PinnedList } from '../components/PinnedList.tsx';
import { SearchPanel } from '../components/SearchPanel.tsx';
import { TranscriptList } from '../components/TranscriptList.tsx';
import { Card, EmptyState, PageHeader, Tabs } from '../components/ui.tsx';
import type { Route } from '../router.ts';

const TABS = [
  { id: 'pinned', label: 'Pinned facts' },
  { id: 'episodes', label: 'Episodes' },
  { id: 'identity', label: 'Identity' },
  { id: 'transcript', label: 'Transcript' },
  { id: 'search', label: 'Search' },
] as const;
type TabId = (typeof TABS)[number]['id'];

export function MemoryPage({
  route,
  navigate,
}: {
  route: Route;
  navigate: (page: 'memory', params: Record<string, string | undefined>) => void;
}) {
  const agent = route.params.get('agent') ?? '';
  const tab: TabId = TABS.find((t) => t.id === route.params.get('tab'))?.id ?? 'pinned';
  /** A link from the Activity page may open the transcript on one conversation. */
  const conversation = route.params.get('conversation') ?? '';
  const go = (next: { agent?: string; tab?: TabId }) =>
    navigate('memory', { agent: next.agent ?? agent, tab: next.tab ?? tab });

  return (
    <div className="page">
      <PageHeader title="Memory">
        <AgentPicker value={agent} onChange={(a) => go({ agent: a })} />
      </PageHeader>
      {!agent ? (
        <Card>
          <EmptyState>Choose an agent to browse what Cairn remembers for it.</EmptyState>
        </Card>
      ) : (
        <Card>
          <Tabs
            idPrefix="memory-tab"
            label="Kind of memory"
            tabs={TABS}
            selected={tab}
            onSelect={(next) => go({ tab: next })}
            panelId="memory-panel"
          />
          <div id="memory-panel" role="tabpanel" aria-labelledby={`memory-tab-${tab}`}>
            {tab === 'pinned' ? <PinnedList agentId={agent} key={agent} /> : null}
            {tab === 'episodes' ? <EpisodeList agentId={agent} key={agent} /> : null}
            {tab === 'identity' ? <IdentityEditor agentId={agent} key={agent} /> : null}
            {tab === 'transcript' ? (
              <TranscriptList
                agentId={agent}
                initialConversation={conversation}
                key={`${agent}:${conversation}`}
              />
            ) : null}
            {tab === 'search' ? <SearchPanel agentId={agent} key={agent} /> : null}
          </div>
        </Card>
      )}
    </div>
  );
}
