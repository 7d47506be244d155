// Settings (DESIGN §11): one schema, with defaults and ranges, used by GET/PUT /settings
// and by the renderer's settings form.
import { z } from 'zod';
import { httpUrlProblem } from './urls.ts';

/**
 * Where requests are forwarded: http or https with a host, nothing else (a `file:` or
 * `javascript:` URL would be accepted by a generic URL check and then fail every request).
 */
export const ProviderBaseUrl = z
  .string()
  .trim()
  .max(2000, 'baseUrl is at most 2000 characters')
  .superRefine((url, ctx) => {
    const problem = httpUrlProblem(url);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: `baseUrl ${problem}` });
  });

export const ProviderSettings = z.object({
  id: z.string().trim().min(1).max(100),
  name: z.string().trim().min(1).max(100),
  baseUrl: ProviderBaseUrl,
  /** Never returned in clear by the API: GET answers with `apiKeySet` instead. */
  apiKey: z.string().max(2000).optional(),
});
export type ProviderSettings = z.infer<typeof ProviderSettings>;

/** Each setting's type and range, without defaults (a PATCH must not invent values). */
const fields = {
  enabled: z.boolean(),
  embeddingBackend: z.enum(['transformers', 'none']),
  embeddingModel: z.string().trim().min(1).max(200),
  extractionMode: z.enum(['sessionEnd', 'manual']),
  relevanceGateMode: z.enum(['off', 'heuristic', 'llm']),
  memoryBudgetTokens: z.number().int().min(100).max(4000),
  summaryDebounceSeconds: z.number().int().min(10).max(3600),
  consolidationIntervalHours: z.number().int().min(1).max(168),
  salienceFloor: z.number().min(0).max(1),
  episodeRetentionDays: z.number().int().min(0).max(3650),
  /** Transcript rows older than this (by when Cairn stored them) are pruned; 0 = keep. */
  transcriptRetentionDays: z.number().int().min(0).max(3650),
  /** Deleted memory stays restorable in the trash this long. */
  trashDays: z.number().int().min(1).max(365),
  /**
   * The Activity view keeps the text of injected lines (not only where they came from).
   * Off by default: what memory said stays out of the activity log unless the user asks.
   */
  activityKeepLines: z.boolean(),
  providers: z.array(ProviderSettings).max(20),
  /** Which provider requests are forwarded to (id from `providers`). */
  activeProviderId: z.string().max(100).nullable(),
  /**
   * Where distillation gets its Core Model (DESIGN §6). `auto`: the model the conversation was
   * chatted with when the upstream is on this machine (free), else the heuristic stage;
   * `off`: never a model; `explicit`: `coreModel`, whatever the upstream (the opt-in for a
   * remote provider).
   */
  coreModelMode: z.enum(['auto', 'off', 'explicit']),
  /** The model used for distillation and the llm gate when coreModelMode is explicit, else null. */
  coreModel: z.string().max(500).nullable(),
  port: z.number().int().min(1024).max(65535),
  launchAtLogin: z.boolean(),
};

export const Settings = z.object({
  enabled: fields.enabled.default(true),
  embeddingBackend: fields.embeddingBackend.default('transformers'),
  embeddingModel: fields.embeddingModel.default('Xenova/all-MiniLM-L6-v2'),
  extractionMode: fields.extractionMode.default('sessionEnd'),
  relevanceGateMode: fields.relevanceGateMode.default('heuristic'),
  memoryBudgetTokens: fields.memoryBudgetTokens.default(800),
  summaryDebounceSeconds: fields.summaryDebounceSeconds.default(60),
  consolidationIntervalHours: fields.consolidationIntervalHours.default(24),
  salienceFloor: fields.salienceFloor.default(0.2),
  episodeRetentionDays: fields.episodeRetentionDays.default(365),
  transcriptRetentionDays: fields.transcriptRetentionDays.default(0),
  trashDays: fields.trashDays.default(30),
  activityKeepLines: fields.activityKeepLines.default(false),
  providers: fields.providers.default([]),
  activeProviderId: fields.activeProviderId.default(null),
  coreModelMode: fields.coreModelMode.default('auto'),
  coreModel: fields.coreModel.default(null),
  port: fields.port.default(1337),
  launchAtLogin: fields.launchAtLogin.default(false),
});
export type Settings = z.infer<typeof Settings>;

/**
 * PUT /settings takes any subset; unknown keys are rejected so typos are not silently
 * dropped, and omitted keys stay absent (no defaults filled in).
 */
export const SettingsPatch = z.object(fields).partial().strict();
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
