// Leave-one-conversation-out check of the tuned search choices on LoCoMo
// (`npm run bench -- locomo-loo`). The choices this bench can reach from outside the engine
// are the transcript re-ranking weights (SearchDeps.weights); for each conversation they are
// re-derived on the other two (best mean recall@10 over a grid) and measured on the held-out
// one, next to:
//   - in-sample: the weights tuned on all three conversations, the held-out one included (how
//     the shipped defaults were chosen), measured on the same conversation;
//   - the shipped defaults, and the best weights for that conversation alone (an oracle).
// The gap between in-sample and held-out says how much of the tuning is fitted to these
// conversations. It runs on the production engine (distiller on, default embedder offline,
// so the static word vectors are fused into the ranking) and again with full-text search only.
import { systemClock } from '../src/main/engine/clock.ts';
import {
  createTermStats,
  DEFAULT_RERANK_WEIGHTS,
  searchScope,
  type RerankWeights,
  type SearchDeps,
} from '../src/main/engine/memory/search.ts';
import type { VectorService } from '../src/main/engine/vector/vector-service.ts';
import { defaultLocomoPath, ingestLocomo, loadLocomoOrSkip, startLocomoEngine } from './locomo.ts';

type Print = (line: string) => void;

interface HeldOutQuestions {
  id: string;
  agent: string;
  qs: { q: string; evidence: number[] }[];
}

/** The grid the weights are re-derived from (the shipped defaults are always in it). */
function weightGrid(): RerankWeights[] {
  const grid: RerankWeights[] = [];
  for (const neighbour of [0, 0.2, 0.4, 0.6, 0.8])
    for (const conversation of [0, 0.15, 0.3, 0.45])
      for (const speaker of [0, 0.3, 0.6, 0.9])
        for (const temporal of [0, 0.2])
          for (const dated of [0, 1])
            grid.push({ neighbour, conversation, speaker, temporal, dated });
  if (!grid.some((w) => key(w) === key(DEFAULT_RERANK_WEIGHTS))) grid.push(DEFAULT_RERANK_WEIGHTS);
  return grid;
}

const key = (w: RerankWeights) => JSON.stringify(w);

/**
 * The vector service with its search results kept per query: the vector list does not depend
 * on the re-ranking weights, and the data does not change while the grid runs.
 */
function memoisedVectors(inner: VectorService): VectorService {
  const cache = new Map<string, Promise<{ id: number; score: number }[]>>();
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop !== 'search') return Reflect.get(target, prop, receiver) as unknown;
      const search: VectorService['search'] = (agentId, kind, queryText, k, accept) => {
        if (accept !== undefined) return target.search(agentId, kind, queryText, k, accept);
        const id = JSON.stringify([agentId, kind, queryText, k]);
        let hit = cache.get(id);
        if (!hit) {
          hit = target.search(agentId, kind, queryText, k);
          cache.set(id, hit);
        }
        return hit;
      };
      return search;
    },
  });
}

/** recall[grid index][conversation index] = mean recall@10 of that conversation's questions. */
async function recallGrid(
  deps: Omit<SearchDeps, 'weights'>,
  grid: RerankWeights[],
  convs: HeldOutQuestions[],
): Promise<number[][]> {
  const recall: number[][] = [];
  for (const weights of grid) {
    const row: number[] = [];
    for (const c of convs) {
      let sum = 0;
      for (const { q, evidence } of c.qs) {
        const hits = await searchScope(
          { ...deps, weights },
          { agentId: c.agent, scope: 'transcript', query: q, topK: 10 },
        );
        const ids = new Set(hits.map((x) => x.id));
        sum += evidence.filter((e) => ids.has(e)).length / evidence.length;
      }
      row.push(sum / c.qs.length);
    }
    recall.push(row);
  }
  return recall;
}

/** The grid index with the best question-weighted mean recall over the given conversations. */
function bestOn(recall: number[][], convs: HeldOutQuestions[], use: number[]): number {
  const score = (gi: number) => {
    let s = 0;
    let n = 0;
    for (const ci of use) {
      s += (recall[gi]?.[ci] ?? 0) * convs[ci]!.qs.length;
      n += convs[ci]!.qs.length;
    }
    return s / n;
  };
  let best = 0;
  for (let gi = 1; gi < recall.length; gi++) if (score(gi) > score(best)) best = gi;
  return best;
}

function report(
  print: Print,
  label: string,
  grid: RerankWeights[],
  recall: number[][],
  convs: HeldOutQuestions[],
): void {
  const f = (x: number) => x.toFixed(3);
  const at = (gi: number, ci: number) => recall[gi]?.[ci] ?? 0;
  const all = convs.map((_, ci) => ci);
  const inSample = bestOn(recall, convs, all);
  const def = grid.findIndex((w) => key(w) === key(DEFAULT_RERANK_WEIGHTS));
  const none = grid.findIndex(
    (w) => w.neighbour + w.conversation + w.speaker + w.temporal + w.dated === 0,
  );
  print(`  ${label}: tuned on all three ${key(grid[inSample]!)}`);
  const held: number[] = [];
  const ins: number[] = [];
  for (const [ci, c] of convs.entries()) {
    const chosen = bestOn(
      recall,
      convs,
      all.filter((x) => x !== ci),
    );
    const oracle = bestOn(recall, convs, [ci]);
    held.push(at(chosen, ci));
    ins.push(at(inSample, ci));
    print(
      `    held out ${c.id}: tuned on the other two ${f(at(chosen, ci))} with ${key(grid[chosen]!)}; ` +
        `in-sample ${f(at(inSample, ci))}; shipped defaults ${f(at(def, ci))}; ` +
        `best for it alone ${f(at(oracle, ci))}; no re-ranking ${f(at(none, ci))}`,
    );
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  print(
    `    mean recall@10: held-out ${f(mean(held))}, in-sample ${f(mean(ins))} ` +
      `(gap ${f(mean(ins) - mean(held))}), shipped defaults ${f(mean(all.map((ci) => at(def, ci))))}; ` +
      `held-out spread ${f(Math.max(...held) - Math.min(...held))}`,
  );
}

export async function runLocomoLoo(print: Print, path = defaultLocomoPath()): Promise<void> {
  const data = loadLocomoOrSkip(print, path);
  if (!data) return;
  const started = performance.now();
  const h = await startLocomoEngine('production');
  try {
    const ingested = await ingestLocomo(h, data, 'production', 'loo-');
    const convs: HeldOutQuestions[] = ingested.map(({ conv, agent, idOf }) => ({
      id: conv.sample_id,
      agent,
      qs: conv.qa
        .filter((qa) => qa.category !== 5)
        .map((qa) => ({
          q: qa.question,
          evidence: qa.evidence.map((e) => idOf.get(e)).filter((x): x is number => !!x),
        }))
        .filter((x) => x.evidence.length > 0),
    }));
    const grid = weightGrid();
    print(
      `LoCoMo leave-one-conversation-out (transcript recall@10 of /memory/search's ranking, ` +
        `${grid.length} re-ranking weight settings, ${convs.map((c) => c.qs.length).join('/')} questions)`,
    );
    const termStats = createTermStats();
    const base = { db: h.services.db, clock: systemClock, termStats };
    // services.vectors is typed by the narrower interface of services.ts; the object is the
    // engine's vector service (createVectorService), which search.ts takes.
    const vectors = h.services.vectors as VectorService | null;
    if (vectors?.isReady()) {
      const recall = await recallGrid({ ...base, vectors: memoisedVectors(vectors) }, grid, convs);
      report(print, 'production (word vectors fused)', grid, recall, convs);
    } else {
      print('  production: no vector service ready (only the full-text run below)');
    }
    const lexical = await recallGrid({ ...base, vectors: null }, grid, convs);
    report(print, 'full-text only', grid, lexical, convs);
    print(
      '  not reachable from here (module constants in memory/search.ts): FTS_CANDIDATES, ' +
        'NEIGHBOUR_EXPANSION, NEIGHBOUR_LOOKUPS, MIN_NEIGHBOUR_WORDS, RRF_K, MMR_LAMBDA, DATED_CANDIDATES',
    );
    print(`  took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await h.stop();
  }
}

if (import.meta.main) await runLocomoLoo((line) => process.stdout.write(line + '\n'));
