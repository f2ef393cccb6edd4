import * as vscode from 'vscode';
import type { ChatModel, LanguageModels } from '../agents/languageModelHookExecutor';

/** `vscode.lm` as the prompt-hook executor's port: model selection, one user message, cancellation by AbortSignal. */
export function vscodeLanguageModels(): LanguageModels {
  return {
    select: async (selector) => (await vscode.lm.selectChatModels(selector)).map(chatModel),
  };
}

function chatModel(model: vscode.LanguageModelChat): ChatModel {
  return {
    id: model.id,
    name: model.name,
    family: model.family,
    vendor: model.vendor,
    complete: (prompt, justification, signal) => complete(model, prompt, justification, signal),
  };
}

async function complete(model: vscode.LanguageModelChat, prompt: string, justification: string, signal: AbortSignal): Promise<AsyncIterable<string>> {
  const source = new vscode.CancellationTokenSource();
  const cancel = () => source.cancel();
  if (signal.aborted) source.cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  const release = (finished: boolean) => {
    signal.removeEventListener('abort', cancel);
    // An answer left half-read (cut off, or the call gave up on it) is cancelled at the provider too.
    if (!finished) source.cancel();
    source.dispose();
  };
  try {
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], { justification }, source.token);
    return streamThenRelease(response.text, release);
  } catch (error) {
    release(false);
    throw error;
  }
}

/** The token must live until the stream ends (cancelling it is what stops a streaming answer), then be disposed. */
async function* streamThenRelease(text: AsyncIterable<string>, release: (finished: boolean) => void): AsyncIterable<string> {
  let finished = false;
  try {
    yield* text;
    finished = true;
  } finally {
    release(finished);
  }
}
