import { MAX_HOOK_OUTPUT_BYTES } from './commandHookExecutor';
import type { HookExecution, HookExecutor } from './hookExecution';
import type { HookAction } from './hookSpec';

type HttpAction = Extract<HookAction, { type: 'http' }>;

/** How much of a refusing server's body is quoted in the failure. */
const EXCERPT_CHARS = 200;

/** `$NAME` and `${NAME}` in a header value. */
const VARIABLE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/**
 * A header value with its variables filled in from `env`, but only those the hook lists in `allowedEnvVars`;
 * any other variable becomes empty, so a hook file that came with a repository cannot send out a token the
 * person never gave it.
 */
export function interpolateHeader(value: string, env: NodeJS.ProcessEnv, allowed: readonly string[]): string {
  return value.replace(VARIABLE, (_match, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare) as string;
    return allowed.includes(name) ? (env[name] ?? '') : '';
  });
}

/**
 * Runs `{type: 'http'}` hooks: POSTs the input JSON and reads a 2xx body like a command's stdout (exit 0).
 * Anything else (another status, a redirect, no answer in time, a network error, a body past 64 KiB) is a
 * failure, read by `onFailure` like a crashed command. Redirects are not followed: the hook's author named
 * the URL the input may go to.
 */
export const httpHookExecutor: HookExecutor<HttpAction> = {
  async run(action, _spec, context) {
    const started = performance.now();
    const failed = (message: string): HookExecution => ({ kind: 'failed', message, durationMs: performance.now() - started });
    let url: URL;
    try {
      url = new URL(action.url);
    } catch {
      return failed(`has a URL that cannot be read ('${action.url}')`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return failed(`has a URL that is not http(s) ('${action.url}')`);
    if (context.signal?.aborted) return failed('was cancelled with its call before it was sent');

    const timeout = AbortSignal.timeout(context.timeoutMs);
    const signal = context.signal ? AbortSignal.any([timeout, context.signal]) : timeout;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(action.headers)) headers[name] = interpolateHeader(value, context.env, action.allowedEnvVars);
    // Set last, so a hook's own headers cannot make the body read as something else.
    for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-type') delete headers[name];
    headers['Content-Type'] = 'application/json';
    for (const [name, value] of Object.entries(headers)) {
      // Checked here so fetch's own error, which quotes the value (perhaps a token), never reaches a message.
      try {
        new Headers([[name, value]]);
      } catch {
        return failed(`has a header '${name}' that is not valid HTTP once its variables are filled in`);
      }
    }

    try {
      const response = await fetch(url, { method: 'POST', headers, body: context.input, redirect: 'manual', signal });
      if (response.status < 200 || response.status > 299) {
        const excerpt = (await readBody(response, EXCERPT_CHARS * 4)).text.trim().slice(0, EXCERPT_CHARS);
        const location = response.headers.get('location');
        const detail = response.status >= 300 && response.status < 400 ? ` (a redirect${location ? ` to ${location}` : ''}; redirects are not followed)` : excerpt ? `: ${excerpt}` : '';
        return failed(`answered HTTP ${response.status}${detail}`);
      }
      const body = await readBody(response, MAX_HOOK_OUTPUT_BYTES);
      if (body.cut) return failed(`answered with more than ${MAX_HOOK_OUTPUT_BYTES / 1024} KiB; the answer was discarded`);
      return { kind: 'exited', exitCode: 0, stdout: body.text, stderr: '', durationMs: performance.now() - started };
    } catch (error) {
      if (context.signal?.aborted) return failed('was cancelled with its call; the request was dropped');
      if (timeout.aborted) return failed(`did not answer within ${context.timeoutMs} ms; the request was dropped`);
      return failed(`could not reach ${url.origin} (${networkReason(error)})`);
    }
  },
};

/** Up to `limit` bytes of the body; `cut` when there was more (the rest is never read). */
async function readBody(response: Response, limit: number): Promise<{ text: string; cut: boolean }> {
  if (!response.body) return { text: '', cut: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.length > limit) {
      chunks.push(value.subarray(0, limit - size));
      await reader.cancel().catch(() => undefined);
      return { text: Buffer.concat(chunks).toString('utf8'), cut: true };
    }
    chunks.push(value);
    size += value.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), cut: false };
}

/** fetch says "fetch failed"; the useful part (ECONNREFUSED, a bad header value) is in its cause. */
function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) return (cause as NodeJS.ErrnoException).code ?? cause.message;
  return error.message;
}
