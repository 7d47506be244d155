// OpenAI Responses (DESIGN §9), driven by the official `openai` client: translated to chat
// completions (text, the streaming event sequence, function calls, previous_response_id kept
// in the encrypted database) and passed through when the upstream serves /responses. Memory
// is sticky, so each upstream request is an exact prefix of the next.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, startEngine } from './helpers/engine-harness.ts';

let translated: EngineHarness;
let passing: EngineHarness;

beforeAll(async () => {
  translated = await startEngine();
  passing = await startEngine({
    upstream: translated.upstream,
    config: { upstreamResponses: true },
  });
  for (const h of [translated, passing]) {
    const res = await h.api('POST', '/memory/pinned', {
      agent_id: 'codex',
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

const client = (
  h: EngineHarness,
  headers: Record<string, string> = { 'X-Osaurus-Agent-Id': 'codex' },
) =>
  new OpenAI({ baseURL: h.url + '/v1', apiKey: h.token, maxRetries: 0, defaultHeaders: headers });
const upstream = () => translated.upstream;
const chatMessages = (i: number) =>
  (upstream().chatRequests()[i]!.body as { messages: Record<string, unknown>[] }).messages;

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const QUESTION = 'Do you remember what I named my hive?';

describe('OpenAI Responses, translated to chat completions', () => {
  it('answers responses.create; instructions become the system message, untouched', async () => {
    upstream().enqueue({ kind: 'chat', content: 'It is Honeybadger.' });
    const { data, response } = await client(translated)
      .responses.create({ model: 'local-model', instructions: 'Be brief.', input: QUESTION })
      .withResponse();
    expect(data.object).toBe('response');
    expect(data.status).toBe('completed');
    expect(data.output_text).toBe('It is Honeybadger.');
    expect(data.usage).toMatchObject({ input_tokens: 10, output_tokens: 5, total_tokens: 15 });
    expect(response.headers.get('x-cairn-memory')).toMatch(/^injected; tokens=\d+; section=/);
    const sent = chatMessages(0);
    expect(sent[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(String(sent[1]!.content)).toMatch(
      /^Do you remember what I named my hive\?\n\n\[Memory\]/,
    );
  });

  it('streams the documented event sequence and a function call round trip', async () => {
    upstream().enqueue({
      kind: 'sse',
      events: [
        { data: chunk({ role: 'assistant', content: 'Checking. ' }) },
        {
          data: chunk({
            tool_calls: [
              {
                index: 0,
                id: 'call_9',
                type: 'function',
                function: { name: 'shell', arguments: '{"cmd":' },
              },
            ],
          }),
        },
        { data: chunk({ tool_calls: [{ index: 0, function: { arguments: '"ls"}' } }] }) },
        { data: chunk({}, 'tool_calls') },
        { data: '[DONE]' },
      ],
    });
    const tools = [
      {
        type: 'function' as const,
        name: 'shell',
        description: 'Run a command',
        parameters: { type: 'object', properties: { cmd: { type: 'string' } } },
        strict: false,
      },
    ];
    const input: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: [{ type: 'input_text', text: 'List my hive files.' }] },
    ];
    const types: string[] = [];
    const stream = client(translated).responses.stream({ model: 'local-model', input, tools });
    stream.on('event', (e) => types.push(e.type));
    const first = await stream.finalResponse();
    expect(types[0]).toBe('response.created');
    expect(types[1]).toBe('response.in_progress');
    expect(types.at(-1)).toBe('response.completed');
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const call = first.output.find((o) => o.type === 'function_call');
    expect(call).toMatchObject({ call_id: 'call_9', name: 'shell', arguments: '{"cmd":"ls"}' });
    expect(first.output_text).toBe('Checking. ');

    // Codex-style continuation: the whole input again, with the call and its output.
    upstream().enqueue({ kind: 'chat', content: 'You have three files.' });
    const second = await client(translated)
      .responses.stream({
        model: 'local-model',
        tools,
        input: [
          ...input,
          { type: 'function_call', call_id: 'call_9', name: 'shell', arguments: '{"cmd":"ls"}' },
          { type: 'function_call_output', call_id: 'call_9', output: 'a b c' },
        ],
      })
      .finalResponse();
    expect(second.output_text).toBe('You have three files.');
    const sent = chatMessages(1);
    expect(sent[1]).toMatchObject({
      role: 'assistant',
      tool_calls: [
        { id: 'call_9', type: 'function', function: { name: 'shell', arguments: '{"cmd":"ls"}' } },
      ],
    });
    expect(sent[2]).toEqual({ role: 'tool', tool_call_id: 'call_9', content: 'a b c' });
    expect((chatMessages(1)[0]!.content as string).includes('[Memory]')).toBe(
      (chatMessages(0)[0]!.content as string).includes('[Memory]'),
    );
    expect(JSON.stringify(sent[0])).toBe(JSON.stringify(chatMessages(0)[0]));
  });

  it('continues a conversation from previous_response_id kept in the database', async () => {
    upstream().enqueue(
      { kind: 'chat', content: 'Noted: blue.' },
      { kind: 'chat', content: 'Blue.' },
    );
    const first = await client(translated).responses.create({
      model: 'local-model',
      instructions: 'Remember colours.',
      input: 'My favourite colour is blue.',
    });
    const second = await client(translated).responses.create({
      model: 'local-model',
      instructions: 'Remember colours.',
      previous_response_id: first.id,
      input: 'Which colour did I say?',
    });
    expect(second.previous_response_id).toBe(first.id);
    const sent = chatMessages(1);
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(JSON.stringify(sent.slice(0, 2))).toBe(JSON.stringify(chatMessages(0)));
    expect(sent[2]).toEqual({ role: 'assistant', content: 'Noted: blue.' });
    // Another agent cannot continue it, and an unknown id is a clear 400.
    await expect(
      client(translated, { 'X-Osaurus-Agent-Id': 'someone-else' }).responses.create({
        model: 'local-model',
        previous_response_id: first.id,
        input: 'And?',
      }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    const unknown = await translated.api('POST', '/v1/responses', {
      model: 'm',
      previous_response_id: 'resp_nope',
      input: 'x',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: { message: expect.stringMatching(/resp_nope/) } });
  });

  it('keeps each upstream request an exact prefix of the next over three turns', async () => {
    const input: OpenAI.Responses.ResponseInputItem[] = [];
    const questions = [QUESTION, 'Where do my bees live?', 'What should I feed my hive in winter?'];
    for (const [n, q] of questions.entries()) {
      input.push({ role: 'user', content: [{ type: 'input_text', text: q }] });
      const r = await client(translated, {
        'X-Osaurus-Agent-Id': 'codex',
        'X-Osaurus-Conversation-Id': 'responses-prefix',
      }).responses.create({ model: 'local-model', instructions: 'Stable.', input, store: false });
      input.push({ role: 'assistant', content: r.output_text });
      if (n === 0) {
        await translated.api('POST', '/memory/pinned', {
          agent_id: 'codex',
          content: 'The hive Honeybadger moved to a rooftop in Porto.',
          pinned_by_user: true,
        });
      }
    }
    expect(JSON.stringify(chatMessages(0))).toContain('Honeybadger');
    for (let n = 1; n < 3; n++) {
      const before = chatMessages(n - 1);
      expect(JSON.stringify(chatMessages(n).slice(0, before.length))).toBe(JSON.stringify(before));
    }
  });

  it('answers bad input with a 4xx in the OpenAI error shape', async () => {
    const missing = await translated.api('POST', '/v1/responses', { model: 'm' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      error: {
        type: 'invalid_request_error',
        code: 'validation_failed',
        message: expect.stringMatching(/input/),
      },
    });
    await expect(
      client(translated).responses.create({ model: '', input: 'x' }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    expect(upstream().chatRequests()).toHaveLength(0);
  });
});

describe('OpenAI Responses, passed through to an upstream that serves /responses', () => {
  it('forwards the request with only the memory part added and returns the answer as it came', async () => {
    const answer = {
      id: 'resp_up',
      object: 'response',
      created_at: 1,
      status: 'completed',
      model: 'gpt-x',
      output: [
        {
          type: 'message',
          id: 'msg_up',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'From upstream.', annotations: [] }],
        },
      ],
      usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
    };
    upstream().enqueueAt('/v1/responses', { kind: 'json', body: answer });
    const params = {
      model: 'gpt-x',
      instructions: 'Be exact.',
      input: [
        { role: 'user' as const, content: [{ type: 'input_text' as const, text: QUESTION }] },
      ],
      reasoning: { effort: 'low' as const },
      some_future_field: [1, 2],
    };
    const { data, response } = await client(passing)
      .responses.create(params as OpenAI.Responses.ResponseCreateParamsNonStreaming)
      .withResponse();
    expect(data.output_text).toBe('From upstream.');
    expect(data.id).toBe('resp_up');
    expect(response.headers.get('x-cairn-memory')).toMatch(/^injected; /);
    const got = upstream().requests.find((r) => r.path === '/v1/responses')!;
    const { input: sentInput, ...rest } = got.body as typeof params;
    const { input: _i, ...restSent } = params;
    expect(JSON.stringify(rest)).toBe(JSON.stringify(restSent));
    const parts = sentInput[0]!.content as { type: string; text: string }[];
    expect(parts[0]).toEqual(params.input[0]!.content[0]);
    expect(parts[1]!.type).toBe('input_text');
    expect(parts[1]!.text).toMatch(/^\[Memory\][\s\S]*Honeybadger/);
    expect(upstream().chatRequests()).toHaveLength(0);
  });
});
