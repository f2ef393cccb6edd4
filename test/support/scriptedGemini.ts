import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ScriptStep } from './scriptedAnthropic';

export type { ScriptStep };

/** A part of a Gemini `contents[]` entry, as the agent sends its history back. */
interface SentPart {
  text?: string;
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response?: Record<string, unknown> };
}

export interface RecordedGeminiRequest {
  /** `/v1beta/models/<model>:streamGenerateContent` and the like, without the query. */
  path: string;
  body: { contents?: { role?: string; parts?: SentPart[] }[]; tools?: { functionDeclarations?: { name: string }[] }[]; [key: string]: unknown };
  at: number;
}

export interface ScriptedGemini {
  /** http://127.0.0.1:<port>, for GOOGLE_GEMINI_BASE_URL. */
  url: string;
  /** Every POST the agent made, in arrival order. */
  requests: RecordedGeminiRequest[];
  /** Steps not yet played. */
  remaining(): number;
  /**
   * The tool results the agent sent back (`functionResponse` parts), in order, keyed by the id of the script's
   * call. Gemini CLI answers `{output}` for a tool that ran and `{error}` for one that failed or was blocked.
   */
  toolResults(): { tool_use_id: string; name: string; is_error: boolean; text: string }[];
  /** The names of the tools the agent offered in its first turn (its built-in tool list, as the model sees it). */
  toolNames(): string[];
  close(): Promise<void>;
}

const USAGE = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

function candidate(parts: SentPart[]): object {
  return { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: USAGE };
}

function flatten(response: Record<string, unknown> | undefined): { is_error: boolean; text: string } {
  if (!response) return { is_error: false, text: '' };
  const value = response.error ?? response.output ?? response;
  return { is_error: response.error !== undefined, text: typeof value === 'string' ? value : JSON.stringify(value) };
}

/**
 * A stand-in for the Gemini API (generativelanguage `v1beta`) that plays a fixed script as a streamed model.
 * Gemini CLI streams its agent turns (`models/<m>:streamGenerateContent?alt=sse`, each event one
 * `GenerateContentResponse`, a tool call as a `functionCall` part) and asks side questions without streaming
 * (`:generateContent`: next-speaker checks, routing); a side question gets a short JSON answer that says the
 * user speaks next and does not consume a step. Once the script is spent every turn is answered "done".
 */
export async function startScriptedGemini(script: ScriptStep[]): Promise<ScriptedGemini> {
  const steps = [...script];
  const requests: RecordedGeminiRequest[] = [];
  let ids = 0;

  const stream = (res: ServerResponse, step: ScriptStep) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const part: SentPart = 'tool' in step ? { functionCall: { id: `call_scripted_${++ids}`, name: step.tool, args: step.input } } : { text: step.text };
    res.write(`data: ${JSON.stringify(candidate([part]))}\r\n\r\n`);
    res.end();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    let body: RecordedGeminiRequest['body'] = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    } catch {
      res.writeHead(400).end();
      return;
    }
    requests.push({ path, body, at: performance.now() });
    if (path.endsWith(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: 10 }));
      return;
    }
    if (path.endsWith(':generateContent')) {
      const answer = JSON.stringify({ reasoning: 'scripted', next_speaker: 'user' });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(candidate([{ text: answer }])));
      return;
    }
    if (!path.endsWith(':streamGenerateContent')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 404, message: path, status: 'NOT_FOUND' } }));
      return;
    }
    const agentTurn = (body.tools ?? []).some((tool) => (tool.functionDeclarations ?? []).length > 0);
    const step = agentTurn ? steps.shift() : undefined;
    await step?.before?.();
    stream(res, step ?? { text: 'done' });
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
      const seen = new Map<string, { tool_use_id: string; name: string; is_error: boolean; text: string }>();
      for (const { body } of requests) {
        for (const content of body.contents ?? []) {
          for (const part of content.parts ?? []) {
            const response = part.functionResponse;
            if (response?.id) seen.set(response.id, { tool_use_id: response.id, name: response.name, ...flatten(response.response) });
          }
        }
      }
      return [...seen.values()];
    },
    toolNames() {
      const first = requests.find((r) => (r.body.tools ?? []).some((tool) => (tool.functionDeclarations ?? []).length > 0));
      return (first?.body.tools ?? []).flatMap((tool) => (tool.functionDeclarations ?? []).map((d) => d.name));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
