import type { HookExecution, HookRunContext, PromptHookExecutor } from '../../core/userHooks/hookExecution';
import type { HookAction, HookSpec } from '../../core/userHooks/hookSpec';

/** A model's answer beyond this is cut and the request cancelled: a verdict is a line of JSON, not a novel. */
export const MAX_PROMPT_ANSWER_CHARS = 64 * 1024;

/** Models named in a "not available" message; a provider may offer dozens. */
const MAX_LISTED_MODELS = 8;

export const NO_LANGUAGE_MODEL = 'no language model is available in VS Code (install/sign in to a chat model provider)';

/** One chat model as the executor sees it (a vscode.LanguageModelChat behind `vscodeLanguageModels.ts`). */
export interface ChatModel {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly vendor: string;
  /**
   * Sends `prompt` as one user message and resolves to the text of the answer as it streams. Rejects, or the
   * stream throws, with VS Code's LanguageModelError (its `code`: NoPermissions, Blocked, NotFound) or any error.
   */
  complete(prompt: string, justification: string, signal: AbortSignal): Promise<AsyncIterable<string>>;
}

/** What the executor needs of `vscode.lm`, as a port so it is tested in plain Node. */
export interface LanguageModels {
  /** `vscode.lm.selectChatModels`: every model when the selector is empty. */
  select(selector: { id?: string; family?: string }): Promise<readonly ChatModel[]>;
}

/** Claude Code's rule: `$ARGUMENTS` becomes the hook input JSON; a prompt without it gets the input after a blank line. */
export function promptWithArguments(prompt: string, input: string): string {
  // split/join, not replace: the input may hold `$&` or `$'`, which replace() would expand.
  return prompt.includes('$ARGUMENTS') ? prompt.split('$ARGUMENTS').join(input) : `${prompt}\n\n${input}`;
}

type Stop = 'timeout' | 'cancelled';

/**
 * Runs `type: "prompt"` hooks, and Claude Code's `agent` hooks as prompts (no tools here), as one completion through
 * a VS Code language model; the text is the hook's stdout.
 */
export class LanguageModelHookExecutor implements PromptHookExecutor {
  constructor(private readonly models: LanguageModels) {}

  async run(action: Extract<HookAction, { type: 'prompt' }>, spec: HookSpec, context: HookRunContext): Promise<HookExecution> {
    const started = performance.now();
    const durationMs = () => Math.round(performance.now() - started);
    const failed = (message: string): HookExecution => ({ kind: 'failed', message, durationMs: durationMs() });
    if (context.signal?.aborted) return failed(stopMessage('cancelled', context.timeoutMs));

    // One controller ends the request, whichever comes first: the timeout, or the call being cancelled.
    const stop = new AbortController();
    let stopped: Stop | undefined;
    const halt = (why: Stop) => {
      stopped ??= why;
      stop.abort();
    };
    const timer = setTimeout(() => halt('timeout'), context.timeoutMs);
    const onCancel = () => halt('cancelled');
    context.signal?.addEventListener('abort', onCancel, { once: true });
    const haltedEarly = new Promise<undefined>((resolve) => stop.signal.addEventListener('abort', () => resolve(undefined), { once: true }));
    try {
      // A provider that ignores cancellation must not hold the call: the race returns at the deadline regardless.
      const answer = await Promise.race([this.answer(action, spec, context, stop.signal), haltedEarly]);
      if (stopped || !answer) return failed(stopMessage(stopped ?? 'cancelled', context.timeoutMs));
      return 'text' in answer ? { kind: 'exited', exitCode: 0, stdout: answer.text, stderr: '', durationMs: durationMs() } : failed(answer.failure);
    } finally {
      clearTimeout(timer);
      context.signal?.removeEventListener('abort', onCancel);
      stop.abort(); // a request still streaming (cut answer, lost race) is cancelled at the provider too
    }
  }

  /** Never rejects: every way the model can fail becomes a message. */
  private async answer(
    action: Extract<HookAction, { type: 'prompt' }>,
    spec: HookSpec,
    context: HookRunContext,
    signal: AbortSignal,
  ): Promise<{ text: string } | { failure: string }> {
    const chosen = await this.choose(action.model).catch((error: unknown) => ({ failure: `VS Code could not list its language models (${describe(error)})` }));
    if ('failure' in chosen) return chosen;
    const { model } = chosen;
    const justification = `Intent Governor runs the ${spec.event} ${action.agent ? 'agent hook (as a prompt)' : 'prompt hook'} '${spec.name}' from ${spec.source.file}.`;
    let text = '';
    try {
      const stream = await model.complete(promptWithArguments(action.prompt, context.input), justification, signal);
      for await (const chunk of stream) {
        text += chunk;
        if (text.length > MAX_PROMPT_ANSWER_CHARS) {
          return { failure: `the language model '${model.name}' answered more than ${MAX_PROMPT_ANSWER_CHARS} characters, so the answer was cut off and cannot be read` };
        }
      }
    } catch (error) {
      return { failure: modelFailure(model, error) };
    }
    return { text };
  }

  /** The hook's `model` as an id, else as a family; without one, the first model VS Code offers. */
  private async choose(wanted: string | undefined): Promise<{ model: ChatModel } | { failure: string }> {
    if (wanted === undefined) {
      const [first] = await this.models.select({});
      return first ? { model: first } : { failure: NO_LANGUAGE_MODEL };
    }
    const [model] = (await this.models.select({ id: wanted })).concat(await this.models.select({ family: wanted }));
    if (model) return { model };
    // Not another model in its place: the author chose this one to judge, and a different judge is a different policy.
    const available = (await this.models.select({})).map((each) => `${each.id} (${each.family})`);
    if (available.length === 0) return { failure: NO_LANGUAGE_MODEL };
    const listed = available.length > MAX_LISTED_MODELS ? `${available.slice(0, MAX_LISTED_MODELS).join(', ')}, … ${available.length - MAX_LISTED_MODELS} more` : available.join(', ');
    return {
      failure: `the language model '${wanted}' named by the hook is not available in VS Code (available: ${listed}); set "model" to one of them, or remove it to use the first`,
    };
  }
}

function stopMessage(why: Stop, timeoutMs: number): string {
  return why === 'timeout'
    ? `the language model did not answer within ${timeoutMs} ms and the request was cancelled; raise the hook's "timeout" or name a faster "model"`
    : 'the call was cancelled while the language model was answering';
}

/** VS Code's LanguageModelError codes, said as what happened and what to do. */
function modelFailure(model: ChatModel, error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  const which = `the language model '${model.name}' (${model.vendor})`;
  if (code === 'NoPermissions') {
    return `VS Code did not let Intent Governor use ${which}: the consent was refused or not given (${describe(error)}); allow Intent Governor when VS Code asks, or in the Accounts menu under Manage Language Model Access`;
  }
  if (code === 'Blocked') return `${which} refused the request (blocked, e.g. a quota or rate limit: ${describe(error)}); try again later or name another "model"`;
  if (code === 'NotFound') return `${which} is no longer available (${describe(error)}); check the chat model provider`;
  return `${which} failed (${describe(error)})`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
