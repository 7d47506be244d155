// The heuristic stage types what no specific rule reads by word meaning once the engine's
// static word vectors are loaded (memory/extraction/rules/statements.ts): a conversation sent
// with the official `openai` client through the real server, with no Core Model, ends with
// the statement stored as a fact in the user's words.
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { listPinned } from '../src/main/engine/store/pinned.ts';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';
import { until } from './helpers/until.ts';
import { ensureWordVectorAsset } from './helpers/word-vectors.ts';

let h: EngineHarness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

/**
 * An engine with no Core Model, as on a machine without network: the sentence model is
 * missing, the word vectors serve. Returns once they are loaded.
 */
async function startWithWordVectors(answer: string): Promise<EngineHarness> {
  await ensureWordVectorAsset();
  const engine = await startEngine({
    config: {
      coreModel: 'off',
      distiller: { debounceMsOverride: 50 },
      embedder: {
        backend: 'transformers',
        modelId: 'cairn-test/not-on-this-machine',
        allowRemoteModels: false,
      },
    },
  });
  h = engine;
  await until(() => engine.services.embedder.wordVectors() !== null, 'the word vectors');
  engine.upstream.setDefault(() => ({ kind: 'chat', content: answer }));
  return engine;
}

/** Sends one user message in a conversation through the real server. */
function say(engine: EngineHarness, agent: string, conversation: string, content: string) {
  return new OpenAI({
    baseURL: engine.url + '/v1',
    apiKey: engine.token,
    defaultHeaders: { 'X-Osaurus-Agent-Id': agent, 'X-Osaurus-Conversation-Id': conversation },
  }).chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content }] });
}

/** Every stored fact of the agent, oldest first. */
function facts(engine: EngineHarness, agentId: string) {
  return listPinned(engine.services.db, {
    agentId,
    status: 'all',
    sort: 'created_at',
    limit: 50,
    offset: 0,
  }).items;
}

describe('distillation with word meaning', () => {
  it('a statement no specific rule reads is stored once the word vectors are loaded', async () => {
    const engine = await startWithWordVectors('Use the tag property.');
    await say(
      engine,
      'mo',
      'notes',
      "I've watched Spirited Away about twenty times 🍿 anyway, how do I add tags to a page?",
    );
    await until(() => facts(engine, 'mo').length > 0, 'the distilled fact');
    expect(facts(engine, 'mo').map((f) => f.content)).toEqual([
      'User has watched Spirited Away about twenty times',
    ]);
  });

  it('a new phone supersedes the old one, and no other tool', async () => {
    const engine = await startWithWordVectors('Sure.');
    const inForce = () =>
      facts(engine, 'ph')
        .filter((f) => f.superseded_at === null && !f.content.includes('no longer'))
        .map((f) => f.content);
    await say(
      engine,
      'ph',
      'a',
      "My phone's a Pixel 6, I've had it for ages. We use Figma for design.",
    );
    await until(() => inForce().some((c) => c.includes('Pixel 6')), 'the first phone');
    await say(
      engine,
      'ph',
      'b',
      'Gave up on Android and picked up an iPhone 15 last week. How do I move my WhatsApp chats over?',
    );
    await until(() => inForce().some((c) => c.includes('iPhone 15')), 'the new phone');
    expect(inForce().some((c) => c.includes('Pixel 6'))).toBe(false);
    expect(inForce().some((c) => c.includes('Figma'))).toBe(true);
  });
});
