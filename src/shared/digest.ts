// The JSON digest the Core Model returns for one conversation (DESIGN §6). Validated after
// lenient parsing (src/main/engine/memory/digest.ts); the heuristic distiller produces the
// same shape, so everything downstream handles one type.
import { z } from 'zod';

const text = z.string().trim().min(1).max(2000);
const shortText = z.string().trim().min(1).max(200);
const salience = z.number().min(0).max(1);

export const DigestEpisode = z.object({
  summary: z.string().trim().min(1).max(20_000),
  topics: z.array(shortText).max(50).default([]),
  entities: z.array(shortText).max(50).default([]),
  decisions: z.array(text).max(50).default([]),
  action_items: z.array(text).max(50).default([]),
  salience: salience.default(0.5),
});
export type DigestEpisode = z.infer<typeof DigestEpisode>;

export const PinnedCandidate = z.object({
  content: text,
  salience: salience.default(0.5),
  tags: z.array(z.string().trim().min(1).max(50)).max(20).default([]),
});
export type PinnedCandidate = z.infer<typeof PinnedCandidate>;

export const Digest = z.object({
  episode: DigestEpisode,
  pinned_candidates: z.array(PinnedCandidate).max(100).default([]),
  identity_facts: z.array(text).max(50).default([]),
});
export type Digest = z.infer<typeof Digest>;
