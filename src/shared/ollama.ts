// Ollama's native API (DESIGN §9, issue 13): the request shapes Cairn reads from
// `/api/chat`, `/api/generate` and `/api/show`. Only the fields Cairn looks at are checked;
// everything else (options, keep_alive, format, think, tools...) passes through untouched, as
// Ollama's own server would read it. https://github.com/ollama/ollama/blob/main/docs/api.md
import { z } from 'zod';

const model = z
  .string({ error: 'model is required' })
  .min(1, 'model is required')
  .max(500, 'model is at most 500 characters');

/** A tool call as Ollama writes it: arguments are an object, not a JSON string. */
export const OllamaToolCall = z.looseObject({
  function: z.looseObject({
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type OllamaToolCall = z.infer<typeof OllamaToolCall>;

export const OllamaMessage = z.looseObject({
  role: z.string().min(1, 'role is required').max(50),
  content: z.string().optional(),
  /** Base64 images (no data: prefix). */
  images: z.array(z.string()).optional(),
  tool_calls: z.array(OllamaToolCall).optional(),
  /** On a `tool` message: the tool whose result this is. */
  tool_name: z.string().optional(),
  thinking: z.string().optional(),
});
export type OllamaMessage = z.infer<typeof OllamaMessage>;

/** Ollama's per-request model options; Cairn maps the ones OpenAI has a name for. */
export const OllamaOptions = z.looseObject({
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  seed: z.number().int().optional(),
  stop: z.union([z.string(), z.array(z.string())]).optional(),
  num_predict: z.number().int().optional(),
  frequency_penalty: z.number().optional(),
  presence_penalty: z.number().optional(),
});

const keepAlive = z.union([z.string(), z.number()]).optional();
const format = z.union([z.string(), z.record(z.string(), z.unknown())]).optional();

export const OllamaChatRequest = z.looseObject({
  model,
  /** Empty or absent: a load request (the model is loaded, nothing is generated). */
  messages: z.array(OllamaMessage).max(100_000).optional(),
  /** Ollama streams unless told not to. */
  stream: z.boolean().optional(),
  format,
  keep_alive: keepAlive,
  tools: z.array(z.looseObject({ type: z.string().optional() })).optional(),
  options: OllamaOptions.optional(),
  think: z.union([z.boolean(), z.enum(['high', 'medium', 'low'])]).optional(),
});
export type OllamaChatRequest = z.infer<typeof OllamaChatRequest>;

export const OllamaGenerateRequest = z.looseObject({
  model,
  /** Empty or absent: a load request. */
  prompt: z.string().optional(),
  suffix: z.string().optional(),
  system: z.string().optional(),
  images: z.array(z.string()).optional(),
  /** The prompt is sent as it is, without the model's chat template (autocomplete). */
  raw: z.boolean().optional(),
  stream: z.boolean().optional(),
  format,
  keep_alive: keepAlive,
  options: OllamaOptions.optional(),
});
export type OllamaGenerateRequest = z.infer<typeof OllamaGenerateRequest>;

/** Older clients send `name` instead of `model`. */
export const OllamaShowRequest = z
  .looseObject({ model: model.optional(), name: model.optional() })
  .refine((r) => r.model !== undefined || r.name !== undefined, { error: 'model is required' });
export type OllamaShowRequest = z.infer<typeof OllamaShowRequest>;

/** Ollama's error shape: one string. */
export interface OllamaError {
  error: string;
}
