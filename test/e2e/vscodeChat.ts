// VS Code's own agent (the built-in chat, Copilot Chat 0.67 in code-server 4.139.1) driven offline: its
// Custom Endpoint model provider pointed at a scripted Anthropic Messages server, and a chat turn typed into the
// chat view in Agent mode, as a person would.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { RecordedRequest, ScriptStep, ScriptedAnthropic } from '../support/scriptedAnthropic';
import { waitFor } from './e2eSupport';

const FAILURES = join(__dirname, '..', '..', 'test-results', 'e2e');

/** User settings the agent needs: hooks on, and no per-tool confirmation card for what the hooks already judged. */
export const AGENT_SETTINGS: Readonly<Record<string, unknown>> = {
  'chat.useHooks': true,
  'chat.tools.global.autoApprove': true,
  // VS Code's terminal keeps rules of its own that ask before `rm` and the like (now and then even with the global
  // auto-approve): the governor's modal is the question these tests are about.
  'chat.tools.terminal.autoApprove': { rm: true, '/.*/': true },
};

/**
 * `<user-data>/User/chatLanguageModels.json`: VS Code's built-in "Custom Endpoint" provider with one model at
 * the scripted server (VS Code appends `/v1/messages`; the key is sent empty, which the scripted server ignores).
 */
export function useScriptedModel(userDataDir: string, modelUrl: string): void {
  const model = { id: 'fake-1', name: 'Fake 1', url: modelUrl, apiType: 'messages', toolCalling: true, vision: false, maxInputTokens: 128000, maxOutputTokens: 8000 };
  const provider = { name: 'Fake', vendor: 'customendpoint', apiKey: 'x', apiType: 'messages', models: [model] };
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'chatLanguageModels.json'), `${JSON.stringify([provider], null, 2)}\n`);
}

/** The slice of IndexedDB used below (the project compiles without the DOM library). */
interface IdbOpenRequest {
  result: { createObjectStore(name: string): unknown; transaction(store: string, mode: 'readwrite'): IdbTransaction; close(): void };
  error: unknown;
  onupgradeneeded: (() => void) | null;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
interface IdbTransaction {
  objectStore(name: string): { put(value: string, key: string): unknown };
  error: unknown;
  oncomplete: (() => void) | null;
  onerror: (() => void) | null;
}

/**
 * On a fresh profile the built-in chat stays switched off until chat setup (a sign-in), and the global
 * auto-approve setting waits for an opt-in dialog. Both are keys in the workbench's global state, an IndexedDB
 * database of the server's origin: set them from a same-origin page before the workbench loads.
 */
export async function enableBuiltinChat(page: Page, serverUrl: string): Promise<void> {
  await page.goto(`${serverUrl}/healthz`);
  await page.evaluate(
    (keys) =>
      new Promise<void>((resolve, reject) => {
        const open = (globalThis as unknown as { indexedDB: { open(name: string): IdbOpenRequest } }).indexedDB.open('vscode-web-state-db-global');
        open.onupgradeneeded = () => open.result.createObjectStore('ItemTable');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('ItemTable', 'readwrite');
          for (const key of keys) tx.objectStore('ItemTable').put('true', key);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    ['builtinChatExtensionEnablementMigration', 'chat.tools.global.autoApprove.optIn'],
  );
}

/** A tool result as the agent sent it back to the model: the text the model read. */
export interface SentResult {
  tool_use_id: string;
  text: string;
}

export interface ChatTurn {
  /** The model requests of this conversation, in order (the first carries the prompt and the tool list). */
  requests: RecordedRequest[];
  /** The tool results the agent sent back, in the order the script called the tools. */
  results: SentResult[];
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : JSON.stringify(part))).join('\n');
  return JSON.stringify(content ?? '');
}

/** The tool_result blocks in the newest message of each request: what the agent answered to the model's last call. */
function resultsOf(requests: RecordedRequest[]): SentResult[] {
  const results: SentResult[] = [];
  for (const { body } of requests) {
    const last = body.messages?.at(-1);
    if (!last || typeof last.content === 'string') continue;
    for (const block of last.content) if (block.type === 'tool_result' && block.tool_use_id) results.push({ tool_use_id: block.tool_use_id, text: text(block.content) });
  }
  return results;
}

let conversations = 0;

/**
 * One conversation: a new chat, the prompt typed and sent, the model playing `script` (which should end with a
 * text step), until the agent has sent the request the last step answers and the view has shown the answer.
 * Confirmation cards the agent shows on its own (a terminal command that writes a file) are allowed, as a person
 * trusting the governor would; the governor's own approvals are native modals, left to the test.
 */
export async function chatTurn(page: Page, model: ScriptedAnthropic, script: ScriptStep[], task = 'Do the scripted task.'): Promise<ChatTurn> {
  const from = model.requests.length;
  // The prompt names the conversation in the sessions list, so each is told apart there.
  const prompt = `${task} (conversation ${++conversations})`;
  model.play(script);
  // VS Code clears the stored opt-in when its tools service starts before the user settings have arrived (the
  // setting reads false then), and asks once, as it asks anyone who turns the setting on: the person says yes.
  // Its modal may come after a turn has played, and would then block the next turn's typing.
  const optIn = page.locator('.monaco-dialog-box', { hasText: 'Enable global auto approve?' }).locator('.monaco-button', { hasText: /^Enable$/ });
  if ((await optIn.count()) > 0) await optIn.click({ timeout: 5_000 }).catch(() => undefined);
  // A file the last conversation's edits left unsaved makes VS Code ask whether to save it when the new chat ends
  // that editing session; the dialog would take every click after it. The person saves, as the agent meant.
  const save = page.locator('.monaco-dialog-box', { hasText: 'Do you want to save the changes' }).locator('.monaco-button', { hasText: /^Save$/ });
  await page.keyboard.press('Control+l');
  const input = page.locator('.interactive-input-part .monaco-editor').first();
  await input.waitFor({ state: 'visible', timeout: 60_000 });
  await waitFor('the chat input to take a click', async () => {
    if ((await save.count()) > 0) await save.first().click({ timeout: 5_000 }).catch(() => undefined);
    return input.click({ timeout: 2_000 }).then(() => true, () => undefined);
  }, 60_000, 250);
  await page.keyboard.type(prompt);
  await page.keyboard.press('Enter');
  const allow = page.locator('.interactive-session .monaco-button:visible', { hasText: /^Allow/ }).first();
  // The view at times falls back to the sessions list while a conversation waits for a card: open it again.
  const reopen = page.locator('.agent-session-item:visible', { hasText: prompt }).first();
  const played = async () => {
    if (model.remaining() === 0) return true;
    for (const button of [optIn, save, allow, reopen]) if ((await button.count()) > 0) await button.click({ timeout: 5_000 }).catch(() => undefined);
    return undefined;
  };
  try {
    await waitFor(`VS Code's agent to play the script`, played, 180_000, 500);
  } catch (error) {
    mkdirSync(FAILURES, { recursive: true });
    await page.screenshot({ path: join(FAILURES, `vscode-agent-stuck-${Date.now()}.png`) }).catch(() => undefined);
    throw new Error(`${String(error)} (${model.remaining()} steps left; the chat view is in ${FAILURES})`);
  }
  // The last answer is still streaming into the view; a new chat begun before it ends may be lost.
  await waitFor('the chat to finish its response', async () => ((await page.locator('.interactive-session .chat-response-loading').count()) === 0 ? true : undefined), 60_000);
  const requests = model.requests.slice(from);
  return { requests, results: resultsOf(requests) };
}
