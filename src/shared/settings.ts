// Settings (DESIGN §11): one schema, with defaults and ranges, used by GET/PUT /settings
// and by the renderer's settings form.
import { z } from 'zod';

export const ProviderSettings = z.object({
  id: z.string().trim().min(1).max(100),
  name: z.string().trim().min(1).max(100),
  baseUrl: z.url('baseUrl must be an http(s) URL').max(2000),
  /** Never returned in clear by the API: GET answers with `apiKeySet` instead. */
  apiKey: z.string().max(2000).optional(),
});
export type ProviderSettings = z.infer<typeof ProviderSettings>;

export const Settings = z.object({
  enabled: z.boolean().default(true),
  embeddingBackend: z.enum(['transformers', 'none']).default('transformers'),
  embeddingModel: z.string().trim().min(1).max(200).default('Xenova/all-MiniLM-L6-v2'),
  extractionMode: z.enum(['sessionEnd', 'manual']).default('sessionEnd'),
  relevanceGateMode: z.enum(['off', 'heuristic', 'llm']).default('heuristic'),
  memoryBudgetTokens: z.number().int().min(100).max(4000).default(800),
  summaryDebounceSeconds: z.number().int().min(10).max(3600).default(60),
  consolidationIntervalHours: z.number().int().min(1).max(168).default(24),
  salienceFloor: z.number().min(0).max(1).default(0.2),
  episodeRetentionDays: z.number().int().min(0).max(3650).default(365),
  providers: z.array(ProviderSettings).max(20).default([]),
  /** Which provider requests are forwarded to (id from `providers`). */
  activeProviderId: z.string().max(100).nullable().default(null),
  /** Model used for distillation and the llm gate; null = heuristic distiller. */
  coreModel: z.string().max(500).nullable().default(null),
  port: z.number().int().min(1024).max(65535).default(1337),
  launchAtLogin: z.boolean().default(false),
});
export type Settings = z.infer<typeof Settings>;

/** PUT /settings takes any subset; unknown keys are rejected so typos are not silently dropped. */
export const SettingsPatch = Settings.partial().strict();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

/** What GET /settings returns: provider keys are masked. */
export const PublicProvider = ProviderSettings.omit({ apiKey: true }).extend({
  apiKeySet: z.boolean(),
});
export const PublicSettings = Settings.omit({ providers: true }).extend({
  providers: z.array(PublicProvider),
});
export type PublicSettings = z.infer<typeof PublicSettings>;

export const defaultSettings: Settings = Settings.parse({});
