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

/** A date the fact became true: "2024-03", "2024-03-01" or a full ISO timestamp. */
const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}(?:-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?)?$/);

/**
 * One fact. `content` is the fact as text (third person); a typed fact (DESIGN §6) also
 * names its subject ("user", "user's sister"), relation (memory/relations.ts) and object.
 * The typed fields are optional so a Core Model digest without them still validates; an
 * unknown relation leaves the fact free text.
 */
export const PinnedCandidate = z.object({
  content: text,
  salience: salience.default(0.5),
  tags: z.array(z.string().trim().min(1).max(50)).max(20).default([]),
  subject: z.string().trim().min(1).max(100).optional(),
  relation: z.string().trim().min(1).max(40).optional(),
  object: z.string().trim().min(1).max(200).optional(),
  valid_from: isoDate.optional(),
  /** The statement says the fact no longer holds ("we no longer use X"). */
  ended: z.boolean().optional(),
  /** Transcript row ids the fact was read from (the heuristic distiller knows them). */
  source_ids: z.array(z.number().int().positive()).max(50).optional(),
});
export type PinnedCandidate = z.infer<typeof PinnedCandidate>;

export const Digest = z.object({
  episode: DigestEpisode,
  pinned_candidates: z.array(PinnedCandidate).max(100).default([]),
  identity_facts: z.array(text).max(50).default([]),
});
export type Digest = z.infer<typeof Digest>;
