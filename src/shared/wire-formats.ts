// Request shapes of the other wire formats Cairn serves (DESIGN §9): Anthropic Messages and
// OpenAI Responses. Only what Cairn reads is checked; every other field passes through to the
// upstream untouched (`passthrough`), so a client using a newer API field is not refused.
import { z } from 'zod';

const part = z.object({ type: z.string().min(1).max(100) }).passthrough();

/** https://docs.anthropic.com/en/api/messages */
export const AnthropicMessage = z
  .object({
    role: z.enum(['user', 'assistant']),
    content: z.union([z.string(), z.array(part)]),
  })
  .passthrough();
export type AnthropicMessage = z.infer<typeof AnthropicMessage>;

const anthropicBase = {
  model: z.string().min(1, 'model is required').max(500),
  messages: z.array(AnthropicMessage).min(1, 'messages must not be empty'),
  system: z.union([z.string(), z.array(part)]).optional(),
  tools: z.array(z.object({ name: z.string().max(200) }).passthrough()).optional(),
};

export const AnthropicMessagesRequest = z
  .object({
    ...anthropicBase,
    max_tokens: z.number().int().positive('max_tokens must be a positive integer'),
    stream: z.boolean().optional(),
  })
  .passthrough();
export type AnthropicMessagesRequest = z.infer<typeof AnthropicMessagesRequest>;

export const AnthropicCountTokensRequest = z.object(anthropicBase).passthrough();
export type AnthropicCountTokensRequest = z.infer<typeof AnthropicCountTokensRequest>;

/** https://platform.openai.com/docs/api-reference/responses/create */
export const ResponsesRequest = z
  .object({
    model: z.string().min(1, 'model is required').max(500),
    input: z.union([z.string(), z.array(z.object({}).passthrough())]),
    instructions: z.string().nullable().optional(),
    previous_response_id: z.string().min(1).max(200).nullable().optional(),
    stream: z.boolean().optional(),
    store: z.boolean().nullable().optional(),
  })
  .passthrough();
export type ResponsesRequest = z.infer<typeof ResponsesRequest>;
