import type * as Http from 'node:http';
import { isAbsolute, relative, resolve } from 'node:path';
import { readDiscoveryFiles, type DiscoveredServer } from '../mcp/discoveryFile';
import { HOOK_PATH, type BridgeAnswer, type BridgeRequest } from '../agents/common/nativeCall';

/** The running extension whose workspace folders contain `dir`, if any (the innermost folder wins). */
export async function findGoverningServer(dir: string, serversDir?: string): Promise<DiscoveredServer | undefined> {
  const servers = await readDiscoveryFiles(serversDir).catch(() => [] as DiscoveredServer[]);
  const target = resolve(dir);
  let best: { server: DiscoveredServer; depth: number } | undefined;
  for (const server of servers) {
    for (const folder of server.workspaceFolders) {
      const rel = relative(folder, target);
      if (rel.startsWith('..') || isAbsolute(rel)) continue;
      const depth = folder.length;
      if (!best || depth > best.depth) best = { server, depth };
    }
  }
  return best?.server;
}

/**
 * Asks the extension over its authenticated loopback server (same bearer token and guards as MCP). Any
 * failure is an error value; the caller turns it into a deny. node:http, not fetch: loading fetch's undici
 * costs a fresh process ~60 ms, and agents start one hook process per tool call.
 *
 * Giving up (after `timeoutMs`, or when `signal` aborts) closes the connection: the extension sees the hook
 * hang up and cancels the call, so an approval it was still waiting for can no longer allow anything.
 */
export function askExtension(
  server: Pick<DiscoveredServer, 'port' | 'token'>,
  request: BridgeRequest,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ ok: true; answer: BridgeAnswer } | { ok: false; message: string }> {
  const body = JSON.stringify(request);
  // Required here, not at the top: a headless hook process never asks an extension and skips loading it.
  const { request: httpRequest } = require('node:http') as typeof Http;
  return new Promise((resolve) => {
    const fail = (message: string) => resolve({ ok: false, message });
    if (signal?.aborted) return fail('the hook gave up before asking it');
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        path: HOOK_PATH,
        method: 'POST',
        headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) => fail(`the extension's answer broke off (${error.message})`));
        res.on('end', () => {
          let answer: (Partial<BridgeAnswer> & { error?: string }) | undefined;
          try {
            answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Partial<BridgeAnswer> & { error?: string };
          } catch {
            answer = undefined;
          }
          if (res.statusCode !== 200) return fail(`the extension answered ${res.statusCode ?? '?'}${answer?.error ? `: ${answer.error}` : ''}`);
          if (!answer || !['allow', 'deny', 'ask'].includes(String(answer.decision))) return fail('the extension sent no decision');
          // updatedInput is what the agent must run (a confined shell command, a hook's judged rewrite): never dropped.
          const updated = answer.updatedInput;
          const updatedInput = typeof updated === 'object' && updated !== null && !Array.isArray(updated) ? { updatedInput: updated } : {};
          resolve({
            ok: true,
            answer: { decision: answer.decision as BridgeAnswer['decision'], reason: typeof answer.reason === 'string' ? answer.reason : undefined, context: typeof answer.context === 'string' ? answer.context : undefined, ...updatedInput },
          });
        });
      },
    );
    req.on('timeout', () => {
      req.destroy();
      fail(`the extension did not answer within ${timeoutMs} ms`);
    });
    req.on('error', (error) => fail(signal?.aborted ? `it did not answer before the hook's deadline` : `the extension could not be reached (${error.message})`));
    const giveUp = () => {
      req.destroy();
      fail(`it did not answer before the hook's deadline`);
    };
    signal?.addEventListener('abort', giveUp, { once: true });
    req.once('close', () => signal?.removeEventListener('abort', giveUp));
    req.end(body);
  });
}
