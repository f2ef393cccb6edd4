import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { IntentGovernorApi } from '../../../src/host/extensionApi';

export const EXTENSION_ID = 'intent-governor.intent-governor';

/** Activates Intent Governor (idempotent) and returns its public API. */
export async function activateGovernor(): Promise<IntentGovernorApi> {
  const extension = vscode.extensions.getExtension<IntentGovernorApi | undefined>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed`);
  const api = await extension.activate();
  assert.ok(api, 'activate returned no API: the extension went idle (no folder?)');
  return api;
}

/** The workspace folder under test (a temp copy of demo/workspace). */
export function workspaceUri(...segments: string[]): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'no workspace folder is open');
  return vscode.Uri.joinPath(folder.uri, ...segments);
}

/**
 * Invokes one of our language model tools the way an agent in VS Code does. Returns the first text part
 * (the result, or the refusal's tool_error JSON); hook context follows in later parts.
 */
export async function invokeGovernedTool(tool: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(`intent-governor_${tool}`, { input, toolInvocationToken: undefined });
  const first = result.content[0];
  assert.ok(first instanceof vscode.LanguageModelTextPart, `${tool} returned no text part`);
  return first.value;
}

export interface ToolErrorJson {
  type: string;
  code: string;
  message: string;
  meta?: Record<string, unknown>;
}

/** The tool_error a refusal carries; fails the test when the text is a success instead. */
export function parseToolError(text: string): ToolErrorJson {
  let parsed: ToolErrorJson;
  try {
    parsed = JSON.parse(text) as ToolErrorJson;
  } catch {
    return assert.fail(`expected a tool_error, got: ${text.slice(0, 300)}`);
  }
  assert.equal(parsed.type, 'tool_error', text);
  return parsed;
}

/** `content_hash sha256:…` from a read_file result. */
export function contentHashIn(text: string): string {
  const match = /content_hash (sha256:[0-9a-f]{64})/.exec(text);
  assert.ok(match, `no content_hash in: ${text.slice(0, 200)}`);
  return match[1];
}

/** Polls until `check` returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
