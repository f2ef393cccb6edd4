import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';

/** Polls `probe` until it returns a value, or fails naming what never came. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The text an MCP tool result shows the model. */
export function text(result: unknown): string {
  return (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** The tool_error of a refused MCP call, or undefined when it succeeded. */
export function errorOf(result: unknown): { code: string; message: string; meta?: Record<string, unknown> } | undefined {
  const r = result as CallToolResult;
  return r.isError ? JSON.parse((r.content[0] as { text: string }).text) : undefined;
}

/** The native approval modal as a human sees it: its text (and a screenshot), then a click on one of its buttons. */
export async function answerModal(page: Page, button: 'Approve' | 'Reject', screenshotPath?: string): Promise<string> {
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: 60_000 });
  const shown = await dialog.innerText();
  if (screenshotPath) await page.screenshot({ path: screenshotPath });
  await dialog.locator('.monaco-button', { hasText: new RegExp(`^${button}$`) }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
  return shown;
}
