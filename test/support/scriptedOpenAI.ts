import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { ScriptStep } from './scriptedAnthropic';

export type { ScriptStep };

/** One model request as the agent sent it. `api` says which of the two OpenAI APIs it spoke. */
export interface RecordedOpenAIRequest {
  api: 'responses' | 'chat';
  path: string;
  body: { tools?: unknown[]; input?: unknown; messages?: unknown[]; stream?: boolean; [key: string]: unknown };
  /** performance.now() when the request arrived (benchmarks time the agent's tool calls between two turns). */
  at: number;
}

export interface ScriptedOpenAI {
  /** http://127.0.0.1:<port>; the API answers under both <url>/v1/… and <url>/… (agents differ on who adds /v1). */
  url: string;
  /** Every POST /v1/responses and /v1/chat/completions body, in arrival order. */
  requests: RecordedOpenAIRequest[];
  /** Steps not yet played. */
  remaining(): number;
  /**
   * The tool outputs the agent sent back, in order, keyed by the call id the script's tool call had: Responses
   * `function_call_output` / `custom_tool_call_output` items and Chat Completions `tool` messages. OpenAI's APIs
   * carry no error flag, so `is_error` is always false; the text says what happened.
   */
  toolResults(): { tool_use_id: string; is_error: boolean; text: string }[];
  /** The names of the tools the agent offered in its first request that had any (its built-in tool list). */
  toolNames(): string[];
  close(): Promise<void>;
}

/** A tool in either API's request: Responses `{type, name}` (function, custom) or Chat `{type: 'function', function: {name}}`. */
interface OfferedTool {
  name: string;
  type: string;
  /** Responses API tool namespaces (`{type: 'namespace', name, tools}`): the call names its namespace. */
  namespace?: string;
}

function offeredTools(tools: unknown[] | undefined): OfferedTool[] {
  const out: OfferedTool[] = [];
  for (const tool of tools ?? []) {
    if (typeof tool !== 'object' || tool === null) continue;
    const t = tool as Record<string, unknown>;
    if (t.type === 'namespace' && typeof t.name === 'string' && Array.isArray(t.tools)) {
      out.push(...offeredTools(t.tools).map((inner) => ({ ...inner, namespace: t.name as string })));
      continue;
    }
    const fn = t.function as Record<string, unknown> | undefined;
    const name = typeof t.name === 'string' ? t.name : typeof fn?.name === 'string' ? fn.name : undefined;
    if (name !== undefined) out.push({ name, type: typeof t.type === 'string' ? t.type : 'function' });
  }
  return out;
}

function flatten(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : JSON.stringify(part))).join('\n');
  return JSON.stringify(content ?? '');
}

/** Request bodies as agents send them: plain, or compressed (gzip, deflate, br). */
function decode(raw: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
      return gunzipSync(raw);
    case 'deflate':
      return inflateSync(raw);
    case 'br':
      return brotliDecompressSync(raw);
    default:
      return raw;
  }
}

const USAGE = { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };

/** The Responses API output item a step becomes: a function call, a freeform (custom) tool call, or an assistant message. */
function responsesItem(step: ScriptStep, n: number, tools: OfferedTool[]): Record<string, unknown> {
  if (!('tool' in step)) {
    return { type: 'message', id: `msg_scripted_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] };
  }
  // A freeform tool (apply_patch in some agents) takes raw text: the script gives it as `input.input`.
  const offered = tools.find((t) => t.name === step.tool);
  if (offered?.type === 'custom') {
    const input = typeof step.input.input === 'string' ? step.input.input : JSON.stringify(step.input);
    return { type: 'custom_tool_call', id: `ctc_scripted_${n}`, call_id: `call_scripted_${n}`, name: step.tool, input, status: 'completed' };
  }
  const namespace = offered?.namespace === undefined ? {} : { namespace: offered.namespace };
  return { type: 'function_call', id: `fc_scripted_${n}`, call_id: `call_scripted_${n}`, name: step.tool, ...namespace, arguments: JSON.stringify(step.input), status: 'completed' };
}

function sseData(res: ServerResponse, data: object, event?: string): void {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
}

function answerResponses(res: ServerResponse, body: RecordedOpenAIRequest['body'], step: ScriptStep, n: number, tools: OfferedTool[]): void {
  const model = typeof body.model === 'string' ? body.model : 'scripted-model';
  const item = responsesItem(step, n, tools);
  const response = { id: `resp_scripted_${n}`, object: 'response', created_at: Math.floor(Date.now() / 1000), model, status: 'completed', output: [item], usage: USAGE };
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(response));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  let seq = 0;
  const event = (type: string, data: object) => sseData(res, { type, sequence_number: seq++, ...data }, type);
  event('response.created', { response: { ...response, status: 'in_progress', output: [] } });
  event('response.in_progress', { response: { ...response, status: 'in_progress', output: [] } });
  if (item.type === 'message') {
    const text = (step as { text: string }).text;
    event('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } });
    event('response.content_part.added', { output_index: 0, item_id: item.id, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    event('response.output_text.delta', { output_index: 0, item_id: item.id, content_index: 0, delta: text });
    event('response.output_text.done', { output_index: 0, item_id: item.id, content_index: 0, text });
    event('response.content_part.done', { output_index: 0, item_id: item.id, content_index: 0, part: { type: 'output_text', text, annotations: [] } });
  } else if (item.type === 'function_call') {
    event('response.output_item.added', { output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } });
    event('response.function_call_arguments.delta', { output_index: 0, item_id: item.id, delta: item.arguments });
    event('response.function_call_arguments.done', { output_index: 0, item_id: item.id, arguments: item.arguments });
  } else {
    event('response.output_item.added', { output_index: 0, item: { ...item, input: '', status: 'in_progress' } });
    event('response.custom_tool_call_input.delta', { output_index: 0, item_id: item.id, delta: item.input });
    event('response.custom_tool_call_input.done', { output_index: 0, item_id: item.id, input: item.input });
  }
  event('response.output_item.done', { output_index: 0, item });
  event('response.completed', { response });
  res.end();
}

function answerChat(res: ServerResponse, body: RecordedOpenAIRequest['body'], step: ScriptStep, n: number): void {
  const model = typeof body.model === 'string' ? body.model : 'scripted-model';
  const created = Math.floor(Date.now() / 1000);
  const call = 'tool' in step ? { id: `call_scripted_${n}`, type: 'function', function: { name: step.tool, arguments: JSON.stringify(step.input) } } : undefined;
  const finish = call ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (body.stream !== true) {
    const message = call ? { role: 'assistant', content: null, tool_calls: [call] } : { role: 'assistant', content: (step as { text: string }).text };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `chatcmpl_scripted_${n}`, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (delta: object, finishReason: string | null, extra: object = {}) =>
    sseData(res, { id: `chatcmpl_scripted_${n}`, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra });
  chunk({ role: 'assistant', content: call ? null : '' }, null);
  if (call) {
    chunk({ tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }, null);
    chunk({ tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] }, null);
  } else {
    chunk({ content: (step as { text: string }).text }, null);
  }
  chunk({}, finish, { usage });
  res.write('data: [DONE]\n\n');
  res.end();
}

/** Tool outputs in a Responses request's `input` items. */
function responsesOutputs(input: unknown): { id: string; text: string }[] {
  if (!Array.isArray(input)) return [];
  const out: { id: string; text: string }[] = [];
  for (const item of input) {
    if (typeof item !== 'object' || item === null) continue;
    const i = item as Record<string, unknown>;
    if ((i.type === 'function_call_output' || i.type === 'custom_tool_call_output') && typeof i.call_id === 'string') out.push({ id: i.call_id, text: flatten(i.output) });
  }
  return out;
}

/** Tool outputs in a Chat Completions request's `tool` messages. */
function chatOutputs(messages: unknown[] | undefined): { id: string; text: string }[] {
  const out: { id: string; text: string }[] = [];
  for (const message of messages ?? []) {
    const m = message as Record<string, unknown>;
    if (m?.role === 'tool' && typeof m.tool_call_id === 'string') out.push({ id: m.tool_call_id, text: flatten(m.content) });
  }
  return out;
}

/**
 * A stand-in for OpenAI's model APIs that plays a fixed script as a streamed model: the Responses API
 * (`POST /v1/responses`, SSE `response.*` events with `function_call` / `custom_tool_call` output items) and Chat
 * Completions (`POST /v1/chat/completions`, chunks with `tool_calls` deltas), one step list shared by both, as
 * scriptedAnthropic does for the Messages API. Requests without tools (titles, summaries) get a short text and do
 * not consume a step; once the script is spent every request is answered with "done". `GET …/models` lists one model.
 */
export async function startScriptedOpenAI(script: ScriptStep[]): Promise<ScriptedOpenAI> {
  const steps = [...script];
  const requests: RecordedOpenAIRequest[] = [];
  let ids = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0].replace(/^\/v1(?=\/)/u, '');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST') {
      const models = path === '/models' ? { object: 'list', data: [{ id: 'scripted-model', object: 'model', created: 0, owned_by: 'scripted' }] } : {};
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(models));
      return;
    }
    let body: RecordedOpenAIRequest['body'];
    try {
      body = JSON.parse(decode(Buffer.concat(chunks), req.headers['content-encoding']).toString('utf8') || '{}');
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'unreadable request body', type: 'invalid_request_error' } }));
      return;
    }
    const api = path === '/responses' ? 'responses' : path === '/chat/completions' ? 'chat' : undefined;
    if (!api) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${path}`, type: 'invalid_request_error' } }));
      return;
    }
    requests.push({ api, path: req.url ?? path, body, at: performance.now() });
    const tools = offeredTools(body.tools);
    const step = tools.length > 0 ? steps.shift() : undefined;
    await step?.before?.();
    const played = step ?? { text: 'done' };
    if (api === 'responses') answerResponses(res, body, played, ++ids, tools);
    else answerChat(res, body, played, ++ids);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    remaining: () => steps.length,
    toolResults() {
      const seen = new Map<string, { tool_use_id: string; is_error: boolean; text: string }>();
      for (const { api, body } of requests) {
        for (const { id, text } of api === 'responses' ? responsesOutputs(body.input) : chatOutputs(body.messages)) seen.set(id, { tool_use_id: id, is_error: false, text });
      }
      return [...seen.values()];
    },
    toolNames() {
      const first = requests.find((r) => offeredTools(r.body.tools).length > 0);
      return first ? offeredTools(first.body.tools).map((t) => t.name) : [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
