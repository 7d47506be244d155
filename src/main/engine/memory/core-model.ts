// Which model distils a conversation (DESIGN §6, issue 11): one decision, made per
// distillation from the settings (the --core-model flag already folded in), the upstream in
// use and the model the conversation was last chatted with.
//
//   explicit  the named model, whatever the upstream (how a user opts in to a remote one)
//   off       the heuristic stage, never a model call
//   auto      the chat model when the upstream is on this machine (Ollama, LM Studio,
//             llama.cpp: a call costs nothing), else the heuristic stage; also the heuristic
//             stage when the chat model is unknown (ingest, imports, signals recovered after a
//             restart: the model is remembered in memory only)
import type { Settings } from '../../../shared/settings.ts';
import { isLoopbackUrl } from '../../../shared/core-model.ts';

export type CoreModelSettings = Pick<Settings, 'coreModelMode' | 'coreModel'>;

/** Why a conversation is distilled without a model. */
export type HeuristicReason = 'off' | 'no-upstream' | 'remote-upstream' | 'no-chat-model';

export type CoreModelChoice =
  | { use: 'model'; model: string; source: 'explicit' | 'chat' }
  | { use: 'heuristic'; reason: HeuristicReason };

export interface CoreModelInputs {
  settings: CoreModelSettings;
  /** The OpenAI-compatible upstream's base URL, or null when none is configured. */
  upstreamBaseUrl: string | null;
  /** The `model` of the conversation's most recent chat request, when known. */
  chatModel: string | null;
}

export function resolveCoreModel(inputs: CoreModelInputs): CoreModelChoice {
  const { settings, upstreamBaseUrl, chatModel } = inputs;
  if (settings.coreModelMode === 'off') return { use: 'heuristic', reason: 'off' };
  if (upstreamBaseUrl === null) return { use: 'heuristic', reason: 'no-upstream' };
  if (settings.coreModelMode === 'explicit' && settings.coreModel) {
    return { use: 'model', model: settings.coreModel, source: 'explicit' };
  }
  // auto (an explicit mode without a name cannot be saved; treated as auto all the same)
  if (!isLoopbackUrl(upstreamBaseUrl)) return { use: 'heuristic', reason: 'remote-upstream' };
  const model = chatModel?.trim();
  if (!model) return { use: 'heuristic', reason: 'no-chat-model' };
  return { use: 'model', model, source: 'chat' };
}

/** Words for a log line (never content: the reason only). */
export function heuristicReasonText(reason: HeuristicReason): string {
  switch (reason) {
    case 'off':
      return 'the Core Model is off';
    case 'no-upstream':
      return 'no upstream is configured';
    case 'remote-upstream':
      return 'the upstream is not on this machine and no Core Model was chosen';
    case 'no-chat-model':
      return 'the model of this conversation is not known';
  }
}

/**
 * The settings a `--core-model` / CAIRN_CORE_MODEL value stands for: `off` and `auto` (any
 * case) are the modes, anything else names the model. Blank: no override.
 */
export function coreModelFromFlag(value: string | undefined): CoreModelSettings | null {
  const v = value?.trim();
  if (!v) return null;
  const lower = v.toLowerCase();
  if (lower === 'off') return { coreModelMode: 'off', coreModel: null };
  if (lower === 'auto') return { coreModelMode: 'auto', coreModel: null };
  return { coreModelMode: 'explicit', coreModel: v };
}
