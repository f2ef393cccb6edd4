import { strict as assert } from 'node:assert';
import type { HookExecution, HookRunContext } from '../../../../src/core/userHooks/hookExecution';
import type { HookAction, HookSpec } from '../../../../src/core/userHooks/hookSpec';
import {
  LanguageModelHookExecutor,
  MAX_PROMPT_ANSWER_CHARS,
  NO_LANGUAGE_MODEL,
  promptWithArguments,
  type ChatModel,
  type LanguageModels,
} from '../../../../src/host/agents/languageModelHookExecutor';

type PromptAction = Extract<HookAction, { type: 'prompt' }>;

/** How a scripted model answers: text chunks, an error thrown at the request, or a request that never ends. */
type Script = { chunks: string[] } | { rejects: unknown } | { hangs: true; ignoresCancellation?: boolean };

interface Request {
  model: string;
  prompt: string;
  justification: string;
  signal: AbortSignal;
}

/** vscode.lm with scripted models: records every request, and whether it was cancelled. */
function scriptedModels(models: { id: string; family: string; script: Script }[]) {
  const requests: Request[] = [];
  const chatModel = ({ id, family, script }: (typeof models)[number]): ChatModel => ({
    id,
    family,
    name: `Model ${id}`,
    vendor: 'scripted',
    async complete(prompt, justification, signal) {
      requests.push({ model: id, prompt, justification, signal });
      if ('rejects' in script) throw script.rejects;
      if ('hangs' in script) return hanging(signal, script.ignoresCancellation === true);
      return chunked(script.chunks);
    },
  });
  const lm: LanguageModels = {
    async select(selector) {
      return models.filter((m) => (selector.id === undefined || m.id === selector.id) && (selector.family === undefined || m.family === selector.family)).map(chatModel);
    },
  };
  return { lm, requests };
}

async function* chunked(chunks: string[]): AsyncIterable<string> {
  for (const chunk of chunks) yield chunk;
}

/** A stream that never yields; it ends (throws) on cancellation unless told to ignore it, like a stuck provider. */
async function* hanging(signal: AbortSignal, ignoresCancellation: boolean): AsyncIterable<string> {
  await new Promise<void>((_resolve, reject) => {
    if (!ignoresCancellation) signal.addEventListener('abort', () => reject(new Error('Canceled')), { once: true });
  });
  yield 'never';
}

/** VS Code's LanguageModelError has a `code`: NoPermissions, Blocked, NotFound. */
function languageModelError(code: string, message: string): Error {
  return Object.assign(new Error(message), { name: `${code} (LanguageModelError)`, code });
}

const INPUT = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'write_file', tool_input: { path: 'src/a.ts', content: 'key = "$&$\'"' } });

function spec(action: PromptAction): HookSpec {
  return {
    id: '.orchestration/hooks.json#PreToolUse[0].hooks[0]',
    identity: 'sha256:test',
    name: 'secrets check',
    event: 'PreToolUse',
    matcher: 'write_file',
    action,
    timeoutMs: 30_000,
    async: false,
    asyncRewake: false,
    once: false,
    onFailure: 'block',
    source: { layer: 'project', file: '.orchestration/hooks.json' },
    approvalHash: 'sha256:00',
  };
}

function run(lm: LanguageModels, action: PromptAction, context: Partial<HookRunContext> = {}): Promise<HookExecution> {
  return new LanguageModelHookExecutor(lm).run(action, spec(action), { input: INPUT, env: {}, cwd: '/tmp', timeoutMs: 30_000, ...context });
}

function failure(execution: HookExecution): string {
  assert.equal(execution.kind, 'failed', JSON.stringify(execution));
  return execution.kind === 'failed' ? execution.message : '';
}

describe('prompt hooks through VS Code language models', () => {
  it('sends the prompt with $ARGUMENTS replaced by the input JSON, every occurrence, taken literally', async () => {
    const { lm, requests } = scriptedModels([{ id: 'm1', family: 'f', script: { chunks: ['{"ok": ', 'true}'] } }]);
    const execution = await run(lm, { type: 'prompt', prompt: 'Judge $ARGUMENTS. Again: $ARGUMENTS' });
    assert.deepEqual(execution, { kind: 'exited', exitCode: 0, stdout: '{"ok": true}', stderr: '', durationMs: execution.durationMs });
    assert.equal(requests.length, 1);
    assert.equal(requests[0].prompt, `Judge ${INPUT}. Again: ${INPUT}`);
    assert.match(requests[0].justification, /prompt hook 'secrets check' from \.orchestration\/hooks\.json/);
  });

  it('appends the input JSON after a blank line when the prompt has no $ARGUMENTS, as Claude Code does', async () => {
    const { lm, requests } = scriptedModels([{ id: 'm1', family: 'f', script: { chunks: ['{"ok": false, "reason": "no secrets"}'] } }]);
    const execution = await run(lm, { type: 'prompt', prompt: 'Refuse writes that contain secrets.' });
    assert.equal(execution.kind === 'exited' && execution.stdout, '{"ok": false, "reason": "no secrets"}');
    assert.equal(requests[0].prompt, `Refuse writes that contain secrets.\n\n${INPUT}`);
    assert.equal(promptWithArguments('p', 'x'), 'p\n\nx');
  });

  it('fails, saying what to install, when VS Code has no language model', async () => {
    const { lm } = scriptedModels([]);
    assert.equal(failure(await run(lm, { type: 'prompt', prompt: 'x' })), NO_LANGUAGE_MODEL);
    assert.equal(failure(await run(lm, { type: 'prompt', prompt: 'x', model: 'gpt-4o' })), NO_LANGUAGE_MODEL);
  });

  it("uses the hook's model by id, then by family, else the first model", async () => {
    const models = [
      { id: 'first', family: 'small', script: { chunks: ['first'] } },
      { id: 'second', family: 'large', script: { chunks: ['second'] } },
    ];
    const byId = await run(scriptedModels(models).lm, { type: 'prompt', prompt: 'x', model: 'second' });
    const byFamily = await run(scriptedModels(models).lm, { type: 'prompt', prompt: 'x', model: 'large' });
    const unnamed = await run(scriptedModels(models).lm, { type: 'prompt', prompt: 'x' });
    assert.deepEqual([byId, byFamily, unnamed].map((e) => e.kind === 'exited' && e.stdout), ['second', 'second', 'first']);
  });

  it('does not put another model in the place of the one the hook names: it fails and lists what is available', async () => {
    const { lm, requests } = scriptedModels([{ id: 'first', family: 'small', script: { chunks: ['{"ok": true}'] } }]);
    const message = failure(await run(lm, { type: 'prompt', prompt: 'x', model: 'gpt-5' }));
    assert.match(message, /'gpt-5' named by the hook is not available in VS Code \(available: first \(small\)\)/);
    assert.equal(requests.length, 0);
  });

  it('reports a refused consent as such, with where to allow it', async () => {
    const { lm } = scriptedModels([{ id: 'm1', family: 'f', script: { rejects: languageModelError('NoPermissions', 'Access denied') } }]);
    const message = failure(await run(lm, { type: 'prompt', prompt: 'x' }));
    assert.match(message, /did not let Intent Governor use the language model 'Model m1' \(scripted\): the consent was refused/);
    assert.match(message, /Manage Language Model Access/);
  });

  it('reports a blocked request and any other provider error', async () => {
    const blocked = scriptedModels([{ id: 'm1', family: 'f', script: { rejects: languageModelError('Blocked', 'quota exceeded') } }]);
    assert.match(failure(await run(blocked.lm, { type: 'prompt', prompt: 'x' })), /refused the request \(blocked.*quota exceeded/);
    const broken = scriptedModels([{ id: 'm1', family: 'f', script: { rejects: new Error('socket hang up') } }]);
    assert.match(failure(await run(broken.lm, { type: 'prompt', prompt: 'x' })), /'Model m1' \(scripted\) failed \(socket hang up\)/);
  });

  it('gives up at the timeout, even when the provider ignores cancellation, and cancels the request', async () => {
    const { lm, requests } = scriptedModels([{ id: 'm1', family: 'f', script: { hangs: true, ignoresCancellation: true } }]);
    const message = failure(await run(lm, { type: 'prompt', prompt: 'x' }, { timeoutMs: 50 }));
    assert.match(message, /did not answer within 50 ms and the request was cancelled; raise the hook's "timeout"/);
    assert.equal(requests[0].signal.aborted, true);
  });

  it('stops when the call is cancelled, and cancels the request', async () => {
    const { lm, requests } = scriptedModels([{ id: 'm1', family: 'f', script: { hangs: true } }]);
    const call = new AbortController();
    const running = run(lm, { type: 'prompt', prompt: 'x' }, { signal: call.signal });
    while (requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    call.abort();
    assert.equal(failure(await running), 'the call was cancelled while the language model was answering');
    assert.equal(requests[0].signal.aborted, true);
  });

  it('does not ask the model at all when the call was cancelled before the hook ran', async () => {
    const { lm, requests } = scriptedModels([{ id: 'm1', family: 'f', script: { chunks: ['{"ok": true}'] } }]);
    const message = failure(await run(lm, { type: 'prompt', prompt: 'x' }, { signal: AbortSignal.abort() }));
    assert.match(message, /cancelled/);
    assert.equal(requests.length, 0);
  });

  it('cuts an endless answer off as a failure and cancels the request', async () => {
    const chunk = 'x'.repeat(4096);
    const { lm, requests } = scriptedModels([{ id: 'm1', family: 'f', script: { chunks: Array(MAX_PROMPT_ANSWER_CHARS / chunk.length + 2).fill(chunk) } }]);
    assert.match(failure(await run(lm, { type: 'prompt', prompt: 'x' })), /answered more than 65536 characters, so the answer was cut off/);
    assert.equal(requests[0].signal.aborted, true);
  });

  it('fails when the stream breaks half-way, never passing on half an answer', async () => {
    const lm: LanguageModels = {
      select: async () => [
        {
          id: 'm1',
          name: 'Model m1',
          family: 'f',
          vendor: 'scripted',
          async complete() {
            return (async function* () {
              yield '{"ok": tr';
              throw new Error('stream reset');
            })();
          },
        },
      ],
    };
    assert.match(failure(await run(lm, { type: 'prompt', prompt: 'x' })), /failed \(stream reset\)/);
  });
});
