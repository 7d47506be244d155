// Anthropic Messages (DESIGN §9), driven by the official @anthropic-ai/sdk: translated to the
// OpenAI-compatible upstream (text, streaming, a tool-use round trip, stop reasons, usage) and
// passed through to an Anthropic upstream untouched but for the memory text part. Memory is
// sticky in both, so each upstream request is an exact prefix of the next.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

let translated: EngineHarness;
let passing: EngineHarness;
const ANTHROPIC_KEY = 'sk-ant-upstream-key';

beforeAll(async () => {
  translated = await startEngine();
  // The same scripted server plays the Anthropic provider (its /v1/messages scripts).
  passing = await startEngine({
    upstream: translated.upstream,
    config: {
      anthropicUpstreamUrl: `http://127.0.0.1:${translated.upstream.port}`,
      anthropicApiKey: ANTHROPIC_KEY,
    },
  });
  for (const h of [translated, passing]) {
    const res = await h.api('POST', '/memory/pinned', {
      agent_id: 'claude',
      content: 'The user keeps bees in Lisbon and calls the hive Honeybadger.',
      pinned_by_user: true,
    });
    expect(res.status).toBeLessThan(300);
  }
});
afterAll(async () => {
  await passing?.stop();
  await translated?.stop();
});
beforeEach(() => translated.upstream.reset());

const client = (h: EngineHarness, headers: Record<string, string> = {}) =>
  new Anthropic({
    baseURL: h.url,
    apiKey: h.token,
    maxRetries: 0,
    defaultHeaders: { 'X-Osaurus-Agent-Id': 'claude', ...headers },
  });
const upstream = () => translated.upstream;
const chatBody = (i: number) =>
  upstream().chatRequests()[i]!.body as { messages: Record<string, unknown>[] } & Record<
    string,
    unknown
  >;
const messagesRequests = () => upstream().requests.filter((r) => r.path === '/v1/messages');

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

describe('Anthropic Messages, translated to the OpenAI-compatible upstream', () => {
  it('answers messages.create with text, stop reason and usage', async () => {
    upstream().enqueue({ kind: 'chat', content: 'Hello from the model.' });
    const { data, response } = await client(translated)
      .messages.create({
        model: 'local-model',
        max_tokens: 100,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Do you remember what I named my hive?' }],
      })
      .withResponse();
    expect(data.type).toBe('message');
    expect(data.role).toBe('assistant');
    expect(data.content).toEqual([{ type: 'text', text: 'Hello from the model.' }]);
    expect(data.stop_reason).toBe('end_turn');
    expect(data.usage).toMatchObject({ input_tokens: 10, output_tokens: 5 });
    expect(response.headers.get('x-cairn-memory')).toMatch(/^injected; tokens=\d+; section=/);
    const sent = chatBody(0);
    expect(sent.model).toBe('local-model');
    expect(sent.max_tokens).toBe(100);
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(String(sent.messages[1]!.content)).toMatch(
      /^Do you remember what I named my hive\?\n\n\[Memory\][\s\S]*Honeybadger/,
    );
  });

  it('streams a tool-use round trip with messages.stream().finalMessage()', async () => {
    const tools = [
      {
        name: 'hive_weather',
        description: 'Weather at a hive',
        input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } },
      },
    ];
    upstream().enqueue({
      kind: 'sse',
      events: [
        { data: chunk({ role: 'assistant', content: 'Let me check. ' }) },
        {
          data: chunk({
            tool_calls: [
              {
                index: 0,
                id: 'call_1',
                type: 'function',
                function: { name: 'hive_weather', arguments: '' },
              },
            ],
          }),
        },
        { data: chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }) },
        { data: chunk({ tool_calls: [{ index: 0, function: { arguments: '"Lisbon"}' } }] }) },
        { data: chunk({}, 'tool_calls') },
        {
          data: {
            id: 'c',
            object: 'chat.completion.chunk',
            created: 0,
            model: 'm',
            choices: [],
            usage: { prompt_tokens: 31, completion_tokens: 12, total_tokens: 43 },
          },
        },
        { data: '[DONE]' },
      ],
    });
    const user = { role: 'user' as const, content: 'Is it warm at my hive?' };
    const headers = { 'X-Osaurus-Conversation-Id': 'anthropic-tools' };
    const events: string[] = [];
    const stream = client(translated, headers).messages.stream({
      model: 'local-model',
      max_tokens: 200,
      tools,
      messages: [user],
    });
    stream.on('streamEvent', (e) => events.push(e.type));
    const first = await stream.finalMessage();
    expect(events[0]).toBe('message_start');
    expect(events.at(-1)).toBe('message_stop');
    expect(events.at(-2)).toBe('message_delta');
    expect(first.stop_reason).toBe('tool_use');
    expect(first.usage).toMatchObject({ input_tokens: 31, output_tokens: 12 });
    expect(first.content).toEqual([
      { type: 'text', text: 'Let me check. ' },
      { type: 'tool_use', id: 'call_1', name: 'hive_weather', input: { city: 'Lisbon' } },
    ]);
    const sentTools = chatBody(0).tools as { type: string; function: { name: string } }[];
    expect(sentTools[0]).toMatchObject({ type: 'function', function: { name: 'hive_weather' } });

    upstream().enqueue({ kind: 'chat', content: 'Yes, 24 degrees.' });
    const second = await client(translated, headers)
      .messages.stream({
        model: 'local-model',
        max_tokens: 200,
        tools,
        messages: [
          user,
          { role: 'assistant', content: first.content },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '{"temp":24}' }],
          },
        ],
      })
      .finalMessage();
    expect(second.stop_reason).toBe('end_turn');
    expect(second.content).toEqual([{ type: 'text', text: 'Yes, 24 degrees.' }]);
    const sent = chatBody(1).messages;
    expect(sent[1]).toMatchObject({
      role: 'assistant',
      content: 'Let me check. ',
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'hive_weather', arguments: '{"city":"Lisbon"}' },
        },
      ],
    });
    expect(sent[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '{"temp":24}' });
    // A tool-only continuation gets no fresh block; the first message keeps the one it had.
    expect(sent).toHaveLength(3);
    expect(JSON.stringify(sent[0])).toBe(JSON.stringify(chatBody(0).messages[0]));
  });

  it('keeps each upstream request an exact prefix of the next over three turns', async () => {
    await expectPrefixStable(translated, () =>
      upstream()
        .chatRequests()
        .map((r) => (r.body as { messages: unknown[] }).messages),
    );
  });

  it('answers bad input with a 4xx in Anthropic’s error shape', async () => {
    const noMax = await translated.api(
      'POST',
      '/v1/messages',
      { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      { 'x-api-key': translated.token, authorization: '' },
    );
    expect(noMax.status).toBe(400);
    expect(noMax.body).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringMatching(/max_tokens/) },
    });
    const badJson = await fetch(translated.url + '/v1/messages', {
      method: 'POST',
      headers: { 'x-api-key': translated.token, 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });
    const noToken = await fetch(translated.url + '/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'm',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error' },
    });
    await expect(
      client(translated).messages.create({
        model: 'm',
        max_tokens: 5,
        messages: [{ role: 'tool' as 'user', content: 'x' }],
      }),
    ).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    expect(upstream().chatRequests()).toHaveLength(0);
  });

  it('adds no memory to auxiliary requests and counts tokens without an Anthropic upstream', async () => {
    const { response } = await client(translated, { 'x-claude-code-request-class': 'title' })
      .messages.create({
        model: 'm',
        max_tokens: 20,
        messages: [{ role: 'user', content: 'Do you remember what I named my hive?' }],
      })
      .withResponse();
    expect(response.headers.get('x-cairn-memory')).toBe('none; reason=auxiliary');
    expect(JSON.stringify(chatBody(0))).not.toContain('[Memory]');
    const { data: count, response: countResponse } = await client(translated)
      .messages.countTokens({
        model: 'm',
        messages: [{ role: 'user', content: 'How many tokens is this?' }],
      })
      .withResponse();
    expect(count.input_tokens).toBeGreaterThan(3);
    expect(countResponse.headers.get('x-cairn-memory')).toBe('none; reason=auxiliary');
  });
});

describe('Anthropic Messages, passed through to an Anthropic upstream', () => {
  it('forwards headers, unknown fields, cache_control and system blocks byte for byte', async () => {
    const answer = {
      id: 'msg_up',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'text', text: 'From Anthropic.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: 50,
        output_tokens: 4,
        cache_creation_input_tokens: 40,
        cache_read_input_tokens: 7,
      },
    };
    upstream().enqueueAt('/v1/messages', {
      kind: 'json',
      body: answer,
      headers: { 'request-id': 'req_1' },
    });
    const system = [
      {
        type: 'text' as const,
        text: 'You are Claude Code.',
        cache_control: { type: 'ephemeral' as const },
      },
    ];
    const messages = [
      { role: 'user' as const, content: 'Please look at the hive log.' },
      {
        role: 'assistant' as const,
        content: [
          { type: 'tool_use' as const, id: 'tu_1', name: 'read', input: { path: 'hive.log' } },
        ],
      },
      {
        role: 'user' as const,
        content: [
          { type: 'tool_result' as const, tool_use_id: 'tu_1', content: 'all calm' },
          {
            type: 'text' as const,
            text: 'Do you remember what I named my hive?',
            cache_control: { type: 'ephemeral' as const },
          },
        ],
      },
    ];
    const params = {
      model: 'claude-x',
      max_tokens: 64,
      system,
      messages,
      metadata: { user_id: 'u1' },
      some_future_field: { keep: [1, 2, 3] },
    };
    const { data, response } = await client(passing, {
      'anthropic-beta': 'prompt-caching-2099-01-01',
      'anthropic-version': '2023-06-01',
    })
      .messages.create(params as Anthropic.MessageCreateParamsNonStreaming)
      .withResponse();
    expect(data).toEqual(answer);
    expect(response.headers.get('request-id')).toBe('req_1');
    expect(response.headers.get('x-cairn-memory')).toMatch(/^injected; /);

    const got = messagesRequests()[0]!;
    expect(got.headers['anthropic-beta']).toBe('prompt-caching-2099-01-01');
    expect(got.headers['anthropic-version']).toBe('2023-06-01');
    expect(got.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    expect(got.headers.authorization).toBeUndefined();
    const body = got.body as typeof params;
    const { messages: sentMessages, ...rest } = body;
    const { messages: _m, ...restSent } = params;
    expect(JSON.stringify(rest)).toBe(JSON.stringify(restSent));
    expect(JSON.stringify(sentMessages.slice(0, 2))).toBe(JSON.stringify(messages.slice(0, 2)));
    const last = sentMessages[2]!.content as { type: string; text?: string }[];
    expect(JSON.stringify(last.slice(0, 2))).toBe(JSON.stringify(messages[2]!.content));
    expect(last[0]!.type).toBe('tool_result');
    expect(last[2]!.type).toBe('text');
    expect(last[2]!.text).toMatch(/^\[Memory\][\s\S]*Honeybadger[\s\S]*\[\/Memory\]$/);
  });

  it('passes provider errors back untouched, retry-after included', async () => {
    const error = { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down.' } };
    upstream().enqueueAt('/v1/messages', {
      kind: 'json',
      status: 429,
      body: error,
      headers: { 'retry-after': '17' },
    });
    const res = await fetch(passing.url + '/v1/messages', {
      method: 'POST',
      headers: {
        'x-api-key': passing.token,
        'content-type': 'application/json',
        'anthropic-version': '2023-06-01',
      },
      body: JSON.stringify({
        model: 'claude-x',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('17');
    expect(await res.json()).toEqual(error);
  });

  it('streams the provider’s events through for messages.stream()', async () => {
    const start = {
      type: 'message_start',
      message: {
        id: 'msg_s',
        type: 'message',
        role: 'assistant',
        model: 'claude-x',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 9, output_tokens: 1, cache_read_input_tokens: 5 },
      },
    };
    upstream().enqueueAt('/v1/messages', {
      kind: 'sse',
      events: [
        { event: 'message_start', data: start },
        {
          event: 'content_block_start',
          data: {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'text', text: '' },
          },
        },
        {
          event: 'content_block_delta',
          data: {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_delta', text: 'Streamed.' },
          },
        },
        { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
        {
          event: 'message_delta',
          data: {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: 3 },
          },
        },
        { event: 'message_stop', data: { type: 'message_stop' } },
      ],
    });
    const message = await client(passing)
      .messages.stream({
        model: 'claude-x',
        max_tokens: 20,
        messages: [{ role: 'user', content: 'Hello?' }],
      })
      .finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'Streamed.' }]);
    expect(message.usage).toMatchObject({
      input_tokens: 9,
      output_tokens: 3,
      cache_read_input_tokens: 5,
    });
  });

  it('keeps each upstream request an exact prefix of the next over three turns', async () => {
    await expectPrefixStable(
      passing,
      () => messagesRequests().map((r) => (r.body as { messages: unknown[] }).messages),
      true,
    );
  });
});

/**
 * Three turns of one conversation; between the first two, memory changes (a fresh lookup for
 * the first question would now give another block). The messages the upstream received in
 * turn N must be an exact prefix of those of turn N+1.
 */
async function expectPrefixStable(
  h: EngineHarness,
  sent: () => unknown[][],
  anthropicUpstream = false,
): Promise<void> {
  const questions = [
    'Do you remember what I named my hive?',
    'Where do my bees live?',
    'What should I feed my hive in winter?',
  ];
  const history: Anthropic.MessageParam[] = [];
  for (const [n, q] of questions.entries()) {
    if (anthropicUpstream) {
      upstream().enqueueAt('/v1/messages', {
        kind: 'json',
        body: {
          id: `msg_${n}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-x',
          content: [{ type: 'text', text: `Answer ${n}.` }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      });
    }
    history.push({ role: 'user', content: [{ type: 'text', text: q }] });
    const message = await client(h, {
      'X-Osaurus-Conversation-Id': `prefix-${String(anthropicUpstream)}`,
    }).messages.create({
      model: 'claude-x',
      max_tokens: 50,
      system: [{ type: 'text', text: 'Stable system prompt.' }],
      messages: history,
    });
    history.push({ role: 'assistant', content: message.content });
    if (n === 0) {
      await h.api('POST', '/memory/pinned', {
        agent_id: 'claude',
        content: `The hive Honeybadger moved to a rooftop in Porto (${String(anthropicUpstream)}).`,
        pinned_by_user: true,
      });
    }
  }
  const requests = sent();
  expect(requests).toHaveLength(3);
  expect(JSON.stringify(requests[0])).toContain('Honeybadger');
  for (let n = 1; n < requests.length; n++) {
    const before = requests[n - 1]!;
    expect(JSON.stringify(requests[n]!.slice(0, before.length))).toBe(JSON.stringify(before));
  }
}
