import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CappedStdioServerTransport } from '../../../../src/core/mcp/cappedStdioTransport';

describe('CappedStdioServerTransport', () => {
  async function open(cap: number) {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const transport = new CappedStdioServerTransport(stdin, stdout, cap);
    const received: JSONRPCMessage[] = [];
    const answers: Record<string, unknown>[] = [];
    let closed = false;
    transport.onmessage = (m) => received.push(m);
    transport.onclose = () => (closed = true);
    let out = '';
    stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const lines = out.split('\n');
      out = lines.pop() as string;
      for (const line of lines) answers.push(JSON.parse(line) as Record<string, unknown>);
    });
    await transport.start();
    return { stdin, received, answers, closed: () => closed };
  }
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('answers a frame over the cap with a JSON-RPC error naming its id, and reads the next frame as usual', async () => {
    const t = await open(200);
    const big = JSON.stringify({ method: 'tools/call', params: { name: 'write_file', arguments: { content: 'x'.repeat(5000) } }, jsonrpc: '2.0', id: 7 });
    // Delivered in pieces, as a pipe does.
    for (let i = 0; i < big.length; i += 333) t.stdin.write(big.slice(i, i + 333));
    t.stdin.write('\n{"jsonrpc":"2.0","id":8,"method":"ping"}\n');
    await tick();
    assert.equal(t.closed(), false);
    assert.deepEqual(t.received, [{ jsonrpc: '2.0', id: 8, method: 'ping' }]);
    assert.equal(t.answers.length, 1);
    assert.equal(t.answers[0].id, 7);
    assert.equal((t.answers[0].error as { code: number }).code, -32600);
    assert.match((t.answers[0].error as { message: string }).message, /over the 200-byte limit/);
  });

  it('answers with a null id when the oversized frame does not end with one, and keeps serving', async () => {
    const t = await open(100);
    t.stdin.write(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"x":"${'y'.repeat(500)}"}}\n{"jsonrpc":"2.0","id":4,"method":"ping"}\r\n`);
    await tick();
    assert.equal(t.answers[0].id, null);
    assert.deepEqual(t.received, [{ jsonrpc: '2.0', id: 4, method: 'ping' }]);
  });
});
