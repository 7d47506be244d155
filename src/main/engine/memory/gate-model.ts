// The relevance gate's second opinion (DESIGN §7): a logistic regression over a message's words
// and word pairs that says how likely the message needs what memory holds about its writer. The
// heuristic gate's rules hear the wordings they were written for; the model hears the many
// others people use ("sort me a dinner the missus can have", "am I still off dairy?"). It is
// trained by scripts/train-gate-model.ts on the dev halves of the bench data only (odd lines of
// every personal and unrelated round, the dev pairs and prompts of every paraphrase set, odd
// lines of the unrelated fixture), so the held-out halves measure it.
//
// Written by hand: inference is a sum of a few dozen weights, and training is plain stochastic
// gradient descent over sparse features. The npm libraries for logistic regression take dense
// feature matrices (one column per word and word pair: hundreds of thousands), and the naive
// Bayes text classifiers do not give a probability worth a threshold.
import shipped from './gate-model.json' with { type: 'json' };

export interface GateModel {
  bias: number;
  /** Feature → weight: a word ("dog"), or two words in a row ("my dog"). */
  weights: Record<string, number>;
}

export interface TrainingExample {
  text: string;
  /** The message needs what memory holds about its writer. */
  personal: boolean;
}

/** Lower-cased words (apostrophes kept: "i'm", "mum's") and the marks that shape a sentence. */
function tokens(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/[’‘]/gu, "'")
      .match(/[\p{L}\p{N}']+|[?!.,]/gu) ?? []
  );
}

/** A message's features: each word, and each pair of words in a row, once. */
export function gateFeatures(text: string): string[] {
  const t = tokens(text);
  const out = new Set<string>();
  for (let i = 0; i < t.length; i++) {
    out.add(t[i] as string);
    if (i + 1 < t.length) out.add(`${t[i] as string} ${t[i + 1] as string}`);
  }
  return [...out];
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** How sure the model is that `text` needs memory of its writer (0..1). */
export function personalProbability(text: string, model: GateModel = shipped): number {
  let sum = model.bias;
  for (const f of gateFeatures(text)) sum += model.weights[f] ?? 0;
  return sigmoid(sum);
}

export interface TrainingOptions {
  epochs: number;
  learningRate: number;
  /** L2 penalty per update, against weights fitted to one example's wording. */
  l2: number;
  /** Seed of the shuffle (the same data and seed give the same model). */
  seed: number;
  /** Weights smaller than this are left out of the model (they change no decision). */
  minWeight: number;
}

export const TRAINING: TrainingOptions = {
  epochs: 15,
  learningRate: 0.1,
  l2: 3e-4,
  seed: 1,
  minWeight: 0.05,
};

/** Logistic regression by stochastic gradient descent; weights rounded to 4 decimals. */
export function trainGateModel(
  examples: readonly TrainingExample[],
  options: TrainingOptions = TRAINING,
): GateModel {
  const ids = new Map<string, number>();
  const data = examples.map((e) => ({
    features: gateFeatures(e.text).map((f) => {
      let id = ids.get(f);
      if (id === undefined) ids.set(f, (id = ids.size));
      return id;
    }),
    y: e.personal ? 1 : 0,
  }));
  const w = new Float64Array(ids.size);
  let bias = 0;
  let seed = options.seed;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = data.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [data[i], data[j]] = [data[j]!, data[i]!];
    }
    for (const { features, y } of data) {
      let sum = bias;
      for (const f of features) sum += w[f] as number;
      const g = sigmoid(sum) - y;
      bias -= options.learningRate * g;
      for (const f of features) {
        w[f] = (w[f] as number) - options.learningRate * (g + options.l2 * (w[f] as number));
      }
    }
  }
  const round = (x: number) => Math.round(x * 1e4) / 1e4;
  const weights: Record<string, number> = {};
  for (const [feature, id] of [...ids].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const v = round(w[id] as number);
    if (Math.abs(v) >= options.minWeight) weights[feature] = v;
  }
  return { bias: round(bias), weights };
}
