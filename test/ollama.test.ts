// Ollama's native API (DESIGN §9, issue 13) driven by the official `ollama` client: translated
// to the OpenAI-compatible (scripted) upstream when no Ollama upstream is set, passed through
// byte for byte to a (scripted) Ollama server when one is.
import { Ollama } from 'ollama';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';
import {
  SCRIPTED_OLLAMA_VERSION,
  startScriptedOllama,
  type ScriptedOllama,
} from './helpers/scripted-ollama.ts';

const client = (h: EngineHarness) =>
  new Ollama({ host: h.url, headers: { Authorization: `Bearer ${h.token}` } });

async function rawPost(h: EngineHarness, path: string, body: string, token = h.token) {
  const res = await fetch(h.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe('Ollama API translated to the OpenAI-compatible upstream', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('streams chat as NDJSON: done:false pieces, then done:true with done_reason and eval counts', async () => {
    h.upstream.reset();
    h.upstream.enqueue({ kind: 'stream', chunks: ['Tea ', 'is ', 'ready.'] });
    const stream = await client(h).chat({
      model: 'scripted-model',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Is the tea ready?' },
      ],
      stream: true,
      options: { temperature: 0.2, num_predict: 64 },
    });
    const parts = [];
    for await (const part of stream) parts.push(part);
    const last = parts.at(-1)!;
    expect(parts.slice(0, -1).every((p) => p.done === false)).toBe(true);
    expect(
      parts
        .slice(0, -1)
        .map((p) => p.message.content)
        .join(''),
    ).toBe('Tea is ready.');
    expect(last.done).toBe(true);
    expect(last.done_reason).toBe('stop');
    expect(last.eval_count).toBe(3);
    expect(last.prompt_eval_count).toBe(10);

    const sent = h.upstream.chatRequests()[0]!.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      model: 'scripted-model',
      stream: true,
      temperature: 0.2,
      max_tokens: 64,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Is the tea ready?' },
      ],
    });
  });

  it('answers stream:false with one object, even when the upstream streams anyway', async () => {
    h.upstream.reset();
    h.upstream.enqueue({ kind: 'stream', chunks: ['One ', 'piece.'] });
    const res = await client(h).chat({
      model: 'scripted-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    });
    expect(res).toMatchObject({ message: { content: 'One piece.' }, done: true });
  });

  it('answers stream:false with one object; images become OpenAI image parts', async () => {
    h.upstream.reset();
    h.upstream.enqueue({ kind: 'chat', content: 'A red square.' });
    const png = 'iVBORw0KGgoAAAANSUhEUg==';
    const res = await client(h).chat({
      model: 'scripted-model',
      messages: [{ role: 'user', content: 'What is this?', images: [png] }],
      stream: false,
    });
    expect(res.message).toEqual({ role: 'assistant', content: 'A red square.' });
    expect(res.done).toBe(true);
    expect(res.eval_count).toBe(5);
    const sent = h.upstream.chatRequests()[0]!.body as { messages: unknown[]; stream: boolean };
    expect(sent.stream).toBe(false);
    expect(sent.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
      ],
    });
  });

  it('maps tool calls both ways (arguments as objects for Ollama, JSON text for OpenAI)', async () => {
    h.upstream.reset();
    h.upstream.enqueue({
      kind: 'json',
      body: {
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'x1',
                  type: 'function',
                  function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
                },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 7, completion_tokens: 3 },
      },
    });
    const tools = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ];
    const first = await client(h).chat({
      model: 'scripted-model',
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      tools,
      stream: false,
    });
    expect(first.message.tool_calls).toEqual([
      { function: { name: 'get_weather', arguments: { city: 'Oslo' } } },
    ]);
    expect(first.done_reason).toBe('stop');

    h.upstream.enqueue({ kind: 'chat', content: 'It is 4 degrees.' });
    await client(h).chat({
      model: 'scripted-model',
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        first.message,
        { role: 'tool', content: '4 degrees', tool_name: 'get_weather' },
      ],
      tools,
      stream: false,
    });
    const sent = h.upstream.chatRequests()[1]!.body as {
      messages: { tool_calls?: { id: string; function: unknown }[]; tool_call_id?: string }[];
      tools: unknown;
    };
    expect(sent.tools).toEqual(tools);
    const call = sent.messages[1]!.tool_calls![0]!;
    expect(call.function).toEqual({ name: 'get_weather', arguments: '{"city":"Oslo"}' });
    expect(sent.messages[2]).toEqual({ role: 'tool', tool_call_id: call.id, content: '4 degrees' });
  });

  it('lists the upstream models (list) and shows one (show); an unknown one is a 404', async () => {
    const ollama = client(h);
    const list = await ollama.list();
    expect(list.models.map((m) => m.name)).toEqual(['scripted-model', 'scripted-core']);
    const shown = await ollama.show({ model: 'scripted-model' });
    expect(shown.capabilities).toContain('completion');
    await expect(ollama.show({ model: 'nope' })).rejects.toMatchObject({
      status_code: 404,
      error: "model 'nope' not found",
    });
    const version = await ollama.version();
    expect(version.version).toBe(h.services.version);
  });

  it('generate: a prompt is one user turn; a raw prompt with a suffix goes to /completions', async () => {
    h.upstream.reset();
    h.upstream.enqueue({ kind: 'stream', chunks: ['Once ', 'upon'] });
    const stream = await client(h).generate({
      model: 'scripted-model',
      prompt: 'Tell a story',
      system: 'You tell stories.',
      stream: true,
    });
    let text = '';
    let last;
    for await (const part of stream) {
      text += part.response;
      last = part;
    }
    expect(text).toBe('Once upon');
    expect(last?.done).toBe(true);
    expect((h.upstream.chatRequests()[0]!.body as { messages: unknown }).messages).toEqual([
      { role: 'system', content: 'You tell stories.' },
      { role: 'user', content: 'Tell a story' },
    ]);

    h.upstream.enqueue({ kind: 'chat', content: 'return a + b;' });
    const fim = await client(h).generate({
      model: 'scripted-model',
      prompt: 'function add(a, b) {\n  ',
      suffix: '\n}',
      raw: true,
      stream: false,
    });
    expect(fim.response).toBe('return a + b;');
    const completions = h.upstream.requests.filter((r) => r.path === '/v1/completions');
    expect(completions[0]!.body).toMatchObject({
      prompt: 'function add(a, b) {\n  ',
      suffix: '\n}',
      stream: false,
    });
  });

  it('answers load and unload requests itself, sending nothing upstream', async () => {
    h.upstream.reset();
    const loaded = await client(h).chat({ model: 'scripted-model', messages: [], stream: false });
    expect(loaded.done_reason).toBe('load');
    const unloaded = await client(h).chat({
      model: 'scripted-model',
      messages: [],
      keep_alive: 0,
      stream: false,
    });
    expect(unloaded.done_reason).toBe('unload');
    const gen = await client(h).generate({ model: 'scripted-model', prompt: '', stream: false });
    expect(gen.done_reason).toBe('load');
    expect(h.upstream.requests).toHaveLength(0);
  });

  it('errors in Ollama shape: bad input is a 4xx, never 5xx; upstream failures are 502', async () => {
    const noModel = await rawPost(h, '/api/chat', '{"messages":[]}');
    expect(noModel.status).toBe(400);
    expect(JSON.parse(noModel.text)).toEqual({ error: expect.stringContaining('model') });
    const badMessages = await rawPost(h, '/api/chat', '{"model":"m","messages":"hi"}');
    expect(badMessages.status).toBe(400);
    expect(typeof (JSON.parse(badMessages.text) as { error: unknown }).error).toBe('string');
    const notJson = await rawPost(h, '/api/generate', '{"model":');
    expect(notJson.status).toBe(400);
    expect(typeof (JSON.parse(notJson.text) as { error: unknown }).error).toBe('string');
    const wrongToken = await rawPost(h, '/api/chat', '{"model":"m"}', 'wrong');
    expect(wrongToken.status).toBe(401);
    expect(JSON.parse(wrongToken.text)).toEqual({ error: 'Invalid access token.' });
    const tagsNoToken = await fetch(h.url + '/api/tags');
    expect(tagsNoToken.status).toBe(401);
    expect(typeof ((await tagsNoToken.json()) as { error: unknown }).error).toBe('string');

    h.upstream.enqueue({ kind: 'error', status: 500, message: 'model crashed' });
    await expect(
      client(h).chat({
        model: 'scripted-model',
        messages: [{ role: 'user', content: 'hi' }],
        stream: false,
      }),
    ).rejects.toMatchObject({ status_code: 502, error: expect.stringContaining('model crashed') });
  });

  it('a stream the upstream breaks off ends with an error line the client raises', async () => {
    h.upstream.enqueue({ kind: 'stream', chunks: ['a', 'b', 'c'], breakAfter: 1 });
    const stream = await client(h).chat({
      model: 'scripted-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const read = async () => {
      for await (const part of stream) void part;
    };
    await expect(read()).rejects.toThrow(/closed the stream/);
  });
});

describe('Ollama API passed through to an Ollama upstream', () => {
  let h: EngineHarness;
  let ollama: ScriptedOllama;
  beforeAll(async () => {
    ollama = await startScriptedOllama();
    h = await startEngine({ config: { ollamaUpstreamUrl: ollama.url } });
  });
  afterAll(async () => {
    await h?.stop();
    await ollama?.close();
  });

  it('forwards /api/chat byte for byte and relays the NDJSON answer as it came', async () => {
    ollama.requests.length = 0;
    ollama.reply = ['Bonjour', ' !'];
    const body =
      '{ "model":"llama3.2:1b",  "messages":[{"role":"user","content":"Salut\\u0021"}],' +
      ' "options":{"num_ctx":8192,"mirostat":2}, "keep_alive":"10m", "x_unknown":[1.50] }';
    const res = await rawPost(h, '/api/chat', body);
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/x-ndjson');
    expect(ollama.requests.at(-1)!.rawBody).toBe(body);
    const lines = res.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { done: boolean });
    expect(lines).toHaveLength(3);
    expect(lines.at(-1)).toMatchObject({ done: true, done_reason: 'stop', eval_count: 2 });
    expect(h.upstream.requests).toHaveLength(0); // the OpenAI upstream is not used
  });

  it('the official client works end to end: chat, generate, list, show, version', async () => {
    ollama.reply = ['Hi', ' there'];
    const c = client(h);
    const stream = await c.chat({
      model: 'llama3.2:1b',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
    });
    let text = '';
    for await (const part of stream) text += part.message.content;
    expect(text).toBe('Hi there');
    const gen = await c.generate({ model: 'llama3.2:1b', prompt: 'hello', stream: false });
    expect(gen.response).toBe('Hi there');
    const list = await c.list();
    expect(list.models[0]).toMatchObject({ name: 'llama3.2:1b', size: 1234, digest: 'abc123' });
    const shown = await c.show({ model: 'llama3.2:1b' });
    expect(shown.modelfile).toBe('# scripted');
    await expect(c.show({ model: 'missing' })).rejects.toMatchObject({ status_code: 404 });
    expect((await c.version()).version).toBe(SCRIPTED_OLLAMA_VERSION);
  });

  it('load and unload requests pass through untouched', async () => {
    ollama.requests.length = 0;
    const load = '{"model":"llama3.2:1b","messages":[]}';
    const unload = '{"model":"llama3.2:1b","messages":[],"keep_alive":0}';
    const a = await rawPost(h, '/api/chat', load);
    const b = await rawPost(h, '/api/chat', unload);
    expect(JSON.parse(a.text)).toMatchObject({ done: true, done_reason: 'load' });
    expect(b.status).toBe(200);
    expect(ollama.requests.map((r) => r.rawBody)).toEqual([load, unload]);
  });
});

describe('memory on /api/chat (never on /api/generate)', () => {
  let h: EngineHarness;
  let ollama: ScriptedOllama;
  let native: EngineHarness;
  const agent = { 'X-Osaurus-Agent-Id': 'beekeeper' };
  const withAgent = (e: EngineHarness, headers: Record<string, string> = agent) =>
    new Ollama({ host: e.url, headers: { Authorization: `Bearer ${e.token}`, ...headers } });
  const pin = (e: EngineHarness, agentId: string, content: string) =>
    e.api('POST', '/memory/pinned', { agent_id: agentId, content, pinned_by_user: true });

  beforeAll(async () => {
    h = await startEngine();
    ollama = await startScriptedOllama();
    native = await startEngine({ config: { ollamaUpstreamUrl: ollama.url } });
    for (const e of [h, native]) {
      await pin(e, 'beekeeper', 'The user keeps bees in Lisbon and calls the hive Honeybadger.');
      await pin(e, 'someone-else', 'The user races pigeons called Stormcloud.');
    }
  });
  afterAll(async () => {
    await h?.stop();
    await native?.stop();
    await ollama?.close();
  });

  it('translated: the block goes after the user text, re-sent unchanged next turn; the turn is recorded', async () => {
    h.upstream.reset();
    h.upstream.enqueue({ kind: 'stream', chunks: ['It is ', 'Honeybadger.'] });
    const question = 'Do you remember what I named my hive?';
    const history = [{ role: 'user', content: question }];
    const stream = await withAgent(h).chat({
      model: 'scripted-model',
      messages: history,
      stream: true,
    });
    let answer = '';
    for await (const part of stream) answer += part.message.content;
    const first = h.upstream.chatRequests()[0]!.body as { messages: { content: string }[] };
    const sent = first.messages[0]!.content;
    expect(sent.startsWith(question + '\n\n[Memory]')).toBe(true);
    expect(sent).toContain('Honeybadger');
    expect(sent).not.toContain('Stormcloud');

    // Next turn: the client re-sends the first message without the block; Cairn puts the same
    // bytes back, so the earlier request is an exact prefix of this one.
    history.push({ role: 'assistant', content: answer }, { role: 'user', content: 'Thanks!' });
    await withAgent(h).chat({ model: 'scripted-model', messages: history, stream: false });
    const second = h.upstream.chatRequests()[1]!.body as { messages: unknown[] };
    expect(JSON.stringify(second.messages.slice(0, 1))).toBe(JSON.stringify(first.messages));

    await h.idle();
    const rows = await h.api<{ items: { content: string }[] }>(
      'GET',
      '/memory/transcript?agent_id=beekeeper',
    );
    const texts = rows.body.items.map((r) => r.content);
    expect(texts).toContain(question);
    expect(texts).toContain('It is Honeybadger.');
    expect(texts.some((t) => t.includes('[Memory]'))).toBe(false);
  });

  it('says what memory did in x-cairn-memory; without the agent header nothing is added', async () => {
    h.upstream.reset();
    const res = await fetch(h.url + '/api/chat', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${h.token}`,
        'content-type': 'application/json',
        'x-osaurus-agent-id': 'beekeeper',
      },
      body: JSON.stringify({
        model: 'scripted-model',
        messages: [{ role: 'user', content: 'What is my hive called?' }],
        stream: false,
      }),
    });
    expect(res.headers.get('x-cairn-memory')).toMatch(/^injected; tokens=\d+; section=\w+$/);
    await res.text();
    await client(h).chat({
      model: 'scripted-model',
      messages: [{ role: 'user', content: 'What is my hive called?' }],
      stream: false,
    });
    const plain = h.upstream.chatRequests()[1]!.body as { messages: { content: string }[] };
    expect(plain.messages[0]!.content).toBe('What is my hive called?');
  });

  it('generate is autocomplete: never injected, even with the agent header', async () => {
    h.upstream.reset();
    await withAgent(h).generate({
      model: 'scripted-model',
      prompt: 'What is my hive called?',
      stream: false,
    });
    const sent = h.upstream.chatRequests()[0]!.body as { messages: { content: string }[] };
    expect(sent.messages).toEqual([{ role: 'user', content: 'What is my hive called?' }]);
  });

  it('native: only the memory text differs from what the client sent; the answer is recorded', async () => {
    ollama.requests.length = 0;
    ollama.reply = ['Honey', 'badger'];
    const question = 'Do you remember what I named my hive?';
    const stream = await withAgent(native, {
      'X-Osaurus-Agent-Id': 'beekeeper',
      'X-Osaurus-Conversation-Id': 'native-1',
    }).chat({
      model: 'llama3.2:1b',
      messages: [{ role: 'user', content: question }],
      options: { num_ctx: 8192 },
      stream: true,
    });
    let answer = '';
    for await (const part of stream) answer += part.message.content;
    expect(answer).toBe('Honeybadger');
    const forwarded = JSON.parse(ollama.requests.at(-1)!.rawBody) as {
      messages: { content: string }[];
      options: unknown;
    };
    expect(forwarded.options).toEqual({ num_ctx: 8192 });
    const content = forwarded.messages[0]!.content;
    expect(content.startsWith(question + '\n\n[Memory]')).toBe(true);
    expect(content).toContain('Honeybadger');
    expect(content).not.toContain('Stormcloud');

    await native.idle();
    const rows = await native.api<{ items: { content: string }[] }>(
      'GET',
      '/memory/transcript?agent_id=beekeeper&conversation_id=native-1',
    );
    expect(rows.body.items.map((r) => r.content)).toEqual([question, 'Honeybadger']);
  });
});
