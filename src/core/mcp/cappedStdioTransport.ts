import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_REQUEST_BODY_BYTES } from '../tools/requestBodyCap';

/** JSON-RPC's code for a message that is not a valid request. */
const INVALID_REQUEST = -32600;
/** How much of an oversized frame's end is kept to find its `id` (the SDK's clients write `id` last). */
const TAIL_BYTES = 512;
const TRAILING_ID = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")\s*\}\s*$/;

/**
 * MCP over stdio (newline-delimited JSON-RPC), like the SDK's StdioServerTransport except for a frame over the
 * cap: the SDK's reader throws and closes the transport, so one oversized call ended the whole session without
 * an answer. Here the frame is skipped to its newline without being buffered, answered with a JSON-RPC error
 * (with its id when its end names one), and the next frame is read as usual. The cap is the HTTP doors' own
 * (derived from the largest content the schema allows), so stdio accepts exactly what they accept.
 */
export class CappedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  /** Bytes of the frame being skipped; undefined while reading a frame within the cap. */
  private skipped: number | undefined;
  private tail = Buffer.alloc(0);
  private started = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly maxFrameBytes = MAX_REQUEST_BODY_BYTES,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('CappedStdioServerTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.size = 0;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let from = 0;
    while (from < data.length) {
      const newline = data.indexOf(0x0a, from);
      const end = newline < 0 ? data.length : newline;
      this.take(data.subarray(from, end));
      if (newline < 0) return;
      this.endFrame();
      from = newline + 1;
    }
  };

  /** Part of the current frame: kept while the frame is within the cap, else only counted (and its end kept). */
  private take(part: Buffer): void {
    if (this.skipped === undefined && this.size + part.length <= this.maxFrameBytes) {
      this.chunks.push(part);
      this.size += part.length;
      return;
    }
    if (this.skipped === undefined) {
      this.skipped = this.size;
      this.tail = Buffer.concat(this.chunks).subarray(-TAIL_BYTES);
      this.chunks = [];
      this.size = 0;
    }
    this.skipped += part.length;
    this.tail = Buffer.concat([this.tail, part]).subarray(-TAIL_BYTES);
  }

  private endFrame(): void {
    if (this.skipped !== undefined) {
      const bytes = this.skipped;
      const id = idOf(this.tail.toString('utf8'));
      this.skipped = undefined;
      this.tail = Buffer.alloc(0);
      void this.send({
        jsonrpc: '2.0',
        id: id as string | number,
        error: { code: INVALID_REQUEST, message: `The request is ${bytes} bytes, over the ${this.maxFrameBytes}-byte limit of this door: refused. Send the content in smaller pieces.` },
      } as JSONRPCMessage).catch(() => undefined);
      return;
    }
    const line = Buffer.concat(this.chunks, this.size).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (line === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  }
}

/** The `id` an oversized request's end names (a number or a string), or null when it names none. */
function idOf(tail: string): string | number | null {
  const match = TRAILING_ID.exec(tail);
  if (!match) return null;
  try {
    return JSON.parse(match[1]) as string | number;
  } catch {
    return null;
  }
}
