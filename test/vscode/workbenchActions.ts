// What a human does in the web workbench, shared by the end-to-end tests and the inspector benchmark.
import type { FrameLocator, Page } from 'playwright-core';

/** Runs a command by its palette title (`Intent Governor: Open Trace Inspector`), as a human would. */
export async function runPaletteCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().click();
}

/** Opens a workspace file in an editor through Quick Open, as a human would; resolves once its tab shows. */
export async function openInEditor(page: Page, rel: string): Promise<void> {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(rel);
  const name = rel.split('/').at(-1) as string;
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().click();
  await page.locator('.tabs-container .tab', { hasText: name }).first().waitFor({ state: 'visible', timeout: 30_000 });
}

/** Webviews are two iframes deep in the workbench: the host frame, then the page's own `active-frame`. */
export function webviewFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');
}
