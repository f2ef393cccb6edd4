import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One model turn: call a tool with this input, or answer text (which ends the agent's loop). */
export type ScriptStep = ({ tool: string; input: Record<string, unknown> } | { text: string }) & {
  /** Runs just before the model gives this answer (a person saving a file between two tool calls). */
  before?: () => void | Promise<void>;
};

/** A content block as the agent sends it back in a later request (tool_result carries what the model saw). */
export interface SentBlock {
  type: string;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
  text?: string;
}

interface SentMessage {
  role: string;
  content: string | SentBlock[];
}

export interface RecordedRequest {
  path: string;
  body: { tools?: unknown[]; messages?: SentMessage[]; [key: string]: unknown };
  /** performance.now() when the request arrived (benchmarks time the agent's tool calls between two turns). */
  at: number;
}

export interface ScriptedAnthropic {
  /** http://127.0.0.1:<port>, for ANTHROPIC_BASE_URL. */
  url: string;
  /** Every POST /v1/messages body, in arrival order. */
  requests: RecordedRequest[];
  /** Steps not yet played. */
  remaining(): number;
  /** Replaces the steps not yet played: a long-lived agent (VS Code's chat) plays one script per conversation. */
  play(script: ScriptStep[]): void;
  /** The tool_result blocks the agent sent back, in order, with their text flattened. */
  toolResults(): { tool_use_id: string; is_error: boolean; text: string }[];
  close(): Promise<void>;
}

function sse(res: ServerResponse, event: string, data: object): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
}

function flatten(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : JSON.stringify(part))).join('\n');
  return JSON.stringify(content ?? '');
}

/**
 * A stand-in for the Anthropic Messages API that plays a fixed script as a streamed model. Requests without
 * tools (titles, summaries and other side queries) get a short text and do not consume a step; once the
 * script is spent every request is answered with "done" so the agent stops.
 */
export async function startScriptedAnthropic(script: ScriptStep[]): Promise<ScriptedAnthropic> {
  const steps = [...script];
  const requests: RecordedRequest[] = [];
  let ids = 0;

  const answer = (res: ServerResponse, model: string, step: ScriptStep) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    sse(res, 'message_start', {
      message: { id: `msg_scripted_${++ids}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage },
    });
    if ('tool' in step) {
      sse(res, 'content_block_start', { index: 0, content_block: { type: 'tool_use', id: `toolu_scripted_${ids}`, name: step.tool, input: {} } });
      sse(res, 'content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(step.input) } });
    } else {
      sse(res, 'content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
      sse(res, 'content_block_delta', { index: 0, delta: { type: 'text_delta', text: step.text } });
    }
    sse(res, 'content_block_stop', { index: 0 });
    sse(res, 'message_delta', { delta: { stop_reason: 'tool' in step ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } });
    sse(res, 'message_stop', {});
    res.end();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    let body: RecordedRequest['body'] = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (path.endsWith('/count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 10 }));
      return;
    }
    if (path !== '/v1/messages') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: path } }));
      return;
    }
    requests.push({ path, body, at: performance.now() });
    const model = typeof body.model === 'string' ? body.model : 'scripted-model';
    const agentTurn = Array.isArray(body.tools) && body.tools.length > 0;
    const step = agentTurn ? steps.shift() : undefined;
    await step?.before?.();
    answer(res, model, step ?? { text: 'done' });
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
    play: (script) => void steps.splice(0, steps.length, ...script),
    toolResults() {
      const seen = new Map<string, { tool_use_id: string; is_error: boolean; text: string }>();
      for (const { body } of requests) {
        for (const message of body.messages ?? []) {
          if (typeof message.content === 'string') continue;
          for (const block of message.content) {
            if (block.type === 'tool_result' && block.tool_use_id) {
              seen.set(block.tool_use_id, { tool_use_id: block.tool_use_id, is_error: block.is_error === true, text: flatten(block.content) });
            }
          }
        }
      }
      return [...seen.values()];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
