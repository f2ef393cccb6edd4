// A scripted chat model for the VS Code suite (no real language model is reachable in tests). It registers one
// model through vscode.lm.registerLanguageModelChatProvider; the test drives it through the API `activate`
// returns: which answers to give, whether to hold requests until released, and what prompts arrived.
'use strict';
const vscode = require('vscode');

const VENDOR = 'intent-governor-test';
const MODEL = {
  id: 'scripted-judge',
  name: 'Scripted Judge',
  family: 'scripted',
  version: '1',
  maxInputTokens: 100000,
  maxOutputTokens: 4096,
  capabilities: {},
};
/** What a request gets when the test queued nothing: a refusal, so a forgotten script never looks like approval. */
const UNSCRIPTED = '{"ok": false, "reason": "the scripted model had no answer queued"}';

function activate(context) {
  const answers = [];
  /** One entry per request: the model, the text of every message, and whether VS Code cancelled it. */
  const requests = [];
  let held;

  const provider = {
    provideLanguageModelChatInformation: () => [MODEL],
    async provideLanguageModelChatResponse(model, messages, _options, progress, token) {
      const request = { model: model.id, prompt: messages.map(textOf).join('\n'), cancelled: false };
      requests.push(request);
      const cancelled = new Promise((resolve) => token.onCancellationRequested(() => resolve()));
      void cancelled.then(() => (request.cancelled = true));
      if (held) await Promise.race([held.promise, cancelled]);
      if (token.isCancellationRequested) return;
      const answer = answers.length > 0 ? answers.shift() : UNSCRIPTED;
      // In two parts, so the reader has to join a stream as it would with a real model.
      const half = Math.floor(answer.length / 2);
      progress.report(new vscode.LanguageModelTextPart(answer.slice(0, half)));
      progress.report(new vscode.LanguageModelTextPart(answer.slice(half)));
    },
    provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text : textOf(text)).length / 4),
  };
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(VENDOR, provider));

  return {
    vendor: VENDOR,
    model: MODEL,
    /** Queues answers: each request takes the next one. */
    answer(...texts) {
      answers.push(...texts);
    },
    /** Requests received so far (oldest first). */
    requests() {
      return requests.slice();
    },
    /** From now on requests wait (until release() or cancellation): what runs meanwhile can be observed. */
    hold() {
      let release;
      const promise = new Promise((resolve) => (release = resolve));
      held = { promise, release };
    },
    release() {
      held?.release();
      held = undefined;
    },
    reset() {
      answers.length = 0;
      requests.length = 0;
      this.release();
    },
  };
}

function textOf(message) {
  const parts = Array.isArray(message.content) ? message.content : [message.content];
  return parts.map((part) => (typeof part === 'string' ? part : typeof part?.value === 'string' ? part.value : '')).join('');
}

function deactivate() {}

module.exports = { activate, deactivate };
