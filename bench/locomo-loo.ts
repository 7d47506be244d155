// Leave-one-conversation-out check of the transcript re-ranking weights on LoCoMo
// (`node bench/locomo-loo.ts`): for each conversation, the weights are chosen on the other
// conversations only (best mean recall@10 over a small grid) and measured on the held-out one,
// next to the shipped defaults and to the best weights for the held-out one itself (an
// oracle). If the defaults only fit these conversations, the held-out figures fall well below
// the in-sample ones and the chosen weights swing from fold to fold.
import { existsSync, readFileSync } from 'node:fs';
import { systemClock } from '../src/main/engine/clock.ts';
import {
  createTermStats,
  DEFAULT_RERANK_WEIGHTS,
  searchScope,
  type RerankWeights,
} from '../src/main/engine/memory/search.ts';
import { listTranscript } from '../src/main/engine/store/transcript.ts';
import { startEngine } from '../test/helpers/engine-harness.ts';
import { type Conversation, defaultLocomoPath, sessions, type Turn, turnText } from './locomo.ts';

type Print = (line: string) => void;

export async function runLocomoLoo(print: Print, path = defaultLocomoPath()): Promise<void> {
  if (!existsSync(path)) {
    print(`  skipped: no LoCoMo data at ${path} (set CAIRN_LOCOMO to its path)`);
    return;
  }
  const data = JSON.parse(readFileSync(path, 'utf8')) as Conversation[];
  const h = await startEngine({ config: { embedder: { backend: 'none' } } });
  try {
    const convs: { id: string; agent: string; qs: { q: string; evidence: number[] }[] }[] = [];
    for (const conv of data) {
      const agent = `loo-${conv.sample_id}`;
      const idOf = new Map<string, number>();
      for (const s of sessions(conv)) {
        const conversationId = `${conv.sample_id}-session-${s.n}`;
        const pairs: { user: string; assistant: string }[] = [];
        for (let i = 0; i < s.turns.length; i += 2) {
          const b = s.turns[i + 1];
          pairs.push({ user: turnText(s.turns[i] as Turn), assistant: b ? turnText(b) : '' });
        }
        const res = await h.api('POST', '/memory/ingest', {
          agent_id: agent,
          conversation_id: conversationId,
          session_date: s.date,
          skip_extraction: true,
          turns: pairs,
        });
        if (res.status !== 200) throw new Error(`ingest failed: ${JSON.stringify(res.body)}`);
        const rows = listTranscript(h.services.db, {
          agentId: agent,
          conversationId,
          limit: 1000,
          offset: 0,
          order: 'asc',
        }).items;
        s.turns.forEach((t, i) => {
          const row = rows[i];
          if (row && row.content === turnText(t)) idOf.set(t.dia_id, row.id);
        });
      }
      const qs = conv.qa
        .filter((qa) => qa.category !== 5)
        .map((qa) => ({
          q: qa.question,
          evidence: qa.evidence.map((e) => idOf.get(e)).filter((x): x is number => !!x),
        }))
        .filter((x) => x.evidence.length > 0);
      convs.push({ id: conv.sample_id, agent, qs });
    }

    const grid: RerankWeights[] = [];
    for (const neighbour of [0, 0.2, 0.4, 0.6, 0.8])
      for (const conversation of [0, 0.15, 0.3, 0.45])
        for (const speaker of [0, 0.3, 0.6, 0.9])
          for (const temporal of [0, 0.2])
            grid.push({ neighbour, conversation, speaker, temporal });
    const key = (w: RerankWeights) => JSON.stringify(w);
    if (!grid.some((w) => key(w) === key(DEFAULT_RERANK_WEIGHTS)))
      grid.push(DEFAULT_RERANK_WEIGHTS);

    // recall[grid index][conversation index] = mean recall@10
    const recall: number[][] = [];
    for (const weights of grid) {
      const deps = {
        db: h.services.db,
        vectors: null,
        clock: systemClock,
        termStats: createTermStats(),
        weights,
      };
      const row: number[] = [];
      for (const c of convs) {
        let sum = 0;
        for (const { q, evidence } of c.qs) {
          const hits = await searchScope(deps, {
            agentId: c.agent,
            scope: 'transcript',
            query: q,
            topK: 10,
          });
          const ids = new Set(hits.map((x) => x.id));
          sum += evidence.filter((e) => ids.has(e)).length / evidence.length;
        }
        row.push(sum / c.qs.length);
      }
      recall.push(row);
    }

    const def = grid.findIndex((w) => key(w) === key(DEFAULT_RERANK_WEIGHTS));
    const f = (x: number) => x.toFixed(3);
    print(`LoCoMo leave-one-conversation-out (recall@10, ${grid.length} weight settings)`);
    const heldOut: number[] = [];
    for (const [ci, c] of convs.entries()) {
      // Mean over the questions of the other conversations.
      const trainScore = (gi: number) => {
        let s = 0;
        let n = 0;
        for (const [cj, other] of convs.entries()) {
          if (cj === ci) continue;
          s += (recall[gi]?.[cj] ?? 0) * other.qs.length;
          n += other.qs.length;
        }
        return s / n;
      };
      let chosen = 0;
      let oracle = 0;
      for (let gi = 0; gi < grid.length; gi++) {
        if (trainScore(gi) > trainScore(chosen)) chosen = gi;
        if ((recall[gi]?.[ci] ?? 0) > (recall[oracle]?.[ci] ?? 0)) oracle = gi;
      }
      const held = recall[chosen]?.[ci] ?? 0;
      heldOut.push(held);
      print(
        `  held out ${c.id}: tuned on the others ${f(held)} with ${key(grid[chosen] as RerankWeights)}; ` +
          `shipped defaults ${f(recall[def]?.[ci] ?? 0)}; best possible ${f(recall[oracle]?.[ci] ?? 0)}; ` +
          `no re-ranking ${f(recall[0]?.[ci] ?? 0)}`,
      );
    }
    const spread = Math.max(...heldOut) - Math.min(...heldOut);
    print(
      `  held-out recall@10 ${heldOut.map(f).join(' / ')} (spread ${f(spread)}); ` +
        `defaults on all: ${convs.map((_, ci) => f(recall[def]?.[ci] ?? 0)).join(' / ')}`,
    );
  } finally {
    await h.stop();
  }
}

if (import.meta.main) await runLocomoLoo((line) => process.stdout.write(line + '\n'));
