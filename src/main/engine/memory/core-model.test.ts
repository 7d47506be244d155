// Which model distils a conversation. Remote-looking URLs appear only here, as strings: no
// request is ever sent to them.
import { describe, expect, it } from 'vitest';
import {
  distillCostFigures,
  distillInputTokens,
  DISTILL_MAX_TRANSCRIPT_CHARS,
} from '../../../shared/core-model.ts';
import type { ConversationMessage } from '../store/signals.ts';
import { coreModelFromFlag, heuristicReasonText, resolveCoreModel } from './core-model.ts';
import { buildDistillPrompt } from './distiller.ts';
import { countTokens } from './tokens.ts';

const LOCAL = 'http://127.0.0.1:11434/v1';
const REMOTE = 'https://api.openai.example/v1';

const auto = { coreModelMode: 'auto', coreModel: null } as const;
const off = { coreModelMode: 'off', coreModel: null } as const;
const explicit = (name: string) => ({ coreModelMode: 'explicit', coreModel: name }) as const;

describe('resolveCoreModel', () => {
  it('auto + a loopback upstream: the chat model', () => {
    for (const url of [
      LOCAL,
      'http://localhost:1234/v1',
      'http://127.8.9.10:8080/v1',
      'http://[::1]:8080/v1',
      'http://LOCALHOST./v1',
      'http://llm.localhost:8000/v1',
    ]) {
      expect(
        resolveCoreModel({ settings: auto, upstreamBaseUrl: url, chatModel: 'qwen2.5:7b' }),
      ).toEqual({ use: 'model', model: 'qwen2.5:7b', source: 'chat' });
    }
  });

  it('auto + a remote upstream: the heuristic stage (a remote model is opt-in)', () => {
    for (const url of [
      REMOTE,
      'https://openrouter.example/api/v1',
      'http://192.168.1.20:11434/v1',
      'http://10.0.0.5/v1',
      'http://128.0.0.1/v1',
      'http://localhost.example.com/v1',
      'http://127.0.0.1.nip.example/v1',
    ]) {
      expect(
        resolveCoreModel({ settings: auto, upstreamBaseUrl: url, chatModel: 'gpt-4o-mini' }),
      ).toEqual({ use: 'heuristic', reason: 'remote-upstream' });
    }
  });

  it('auto without a known chat model: the heuristic stage', () => {
    for (const chatModel of [null, '', '   ']) {
      expect(resolveCoreModel({ settings: auto, upstreamBaseUrl: LOCAL, chatModel })).toEqual({
        use: 'heuristic',
        reason: 'no-chat-model',
      });
    }
  });

  it('explicit wins over the chat model, on any upstream (the remote opt-in)', () => {
    for (const url of [LOCAL, REMOTE]) {
      expect(
        resolveCoreModel({ settings: explicit('core-8b'), upstreamBaseUrl: url, chatModel: 'x' }),
      ).toEqual({ use: 'model', model: 'core-8b', source: 'explicit' });
    }
  });

  it('off: never a model, whatever else is known', () => {
    for (const url of [LOCAL, REMOTE, null]) {
      expect(resolveCoreModel({ settings: off, upstreamBaseUrl: url, chatModel: 'm' })).toEqual({
        use: 'heuristic',
        reason: 'off',
      });
    }
  });

  it('no upstream: the heuristic stage, even for an explicit model', () => {
    expect(
      resolveCoreModel({ settings: explicit('core-8b'), upstreamBaseUrl: null, chatModel: 'm' }),
    ).toEqual({ use: 'heuristic', reason: 'no-upstream' });
  });

  it('every reason reads as words', () => {
    for (const reason of ['off', 'no-upstream', 'remote-upstream', 'no-chat-model'] as const) {
      expect(heuristicReasonText(reason)).toMatch(/^[a-z][a-z ,.-]+$/i);
    }
  });
});

describe('coreModelFromFlag (--core-model / CAIRN_CORE_MODEL)', () => {
  it('off and auto are modes, in any case', () => {
    expect(coreModelFromFlag('off')).toEqual({ coreModelMode: 'off', coreModel: null });
    expect(coreModelFromFlag(' OFF ')).toEqual({ coreModelMode: 'off', coreModel: null });
    expect(coreModelFromFlag('Auto')).toEqual({ coreModelMode: 'auto', coreModel: null });
  });

  it('anything else names the model', () => {
    expect(coreModelFromFlag('llama3.2:3b')).toEqual({
      coreModelMode: 'explicit',
      coreModel: 'llama3.2:3b',
    });
    expect(coreModelFromFlag('official')).toEqual({
      coreModelMode: 'explicit',
      coreModel: 'official',
    });
  });

  it('blank or absent: no override', () => {
    expect(coreModelFromFlag(undefined)).toBeNull();
    expect(coreModelFromFlag('  ')).toBeNull();
  });
});

describe('the cost the Settings page quotes', () => {
  it('distillInputTokens is within a fifth of what the distiller really sends (cl100k)', () => {
    const user =
      'I have been planning the garden for weeks now, and I still cannot decide between ' +
      'tomatoes and peppers for the sunny bed by the fence. What would you plant first?';
    const assistant =
      'Both do well in full sun. Tomatoes need staking and steady watering, while peppers ' +
      'like warmer soil, so plant the tomatoes first and add the peppers two weeks later ' +
      'when the nights are warmer. Mulch keeps the moisture even for both of them.';
    for (const exchanges of [1, 5, 10, 40]) {
      const messages: ConversationMessage[] = [];
      for (let i = 0; i < exchanges; i++) {
        const at = Date.UTC(2025, 4, 2, 10, i);
        messages.push({ id: 2 * i, role: 'user', content: user, created_at: at });
        messages.push({ id: 2 * i + 1, role: 'assistant', content: assistant, created_at: at });
      }
      const sent = buildDistillPrompt(messages, DISTILL_MAX_TRANSCRIPT_CHARS)
        .map((m) => m.content)
        .join('\n');
      const real = countTokens(sent);
      const chars = exchanges * (user.length + assistant.length);
      const estimate = distillInputTokens(chars, exchanges * 2);
      expect(Math.abs(estimate - real) / real).toBeLessThan(0.2);
    }
  });

  it('the typical figure lies between the instructions alone and the ceiling', () => {
    const f = distillCostFigures();
    expect(f.promptTokens).toBeGreaterThan(100);
    expect(f.typicalTokens).toBeGreaterThan(f.promptTokens);
    expect(f.maxTokens).toBeGreaterThan(f.typicalTokens);
    expect(f.maxTokens).toBe(distillInputTokens(10 * DISTILL_MAX_TRANSCRIPT_CHARS, 500));
  });
});
