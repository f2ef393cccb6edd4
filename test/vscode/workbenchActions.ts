// What a human does in the web workbench, shared by the end-to-end tests and the inspector benchmark.
import type { FrameLocator, Locator, Page } from 'playwright-core';

/**
 * Opens the command palette with `text` typed in, as a human would. Something that takes focus just after F1 (a view
 * that focuses once it has rendered, a notification, a dialog) closes the palette under the keystrokes: the input
 * goes inert for its closing animation, then hidden. The palette is then opened again, twice at most, and the
 * interruption named on stderr.
 */
export async function openPalette(page: Page, text: string): Promise<Locator> {
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(text, { timeout: 5_000 });
      return input;
    } catch (error) {
      if (attempt === 3) throw error;
      const dialog = await page.locator('.monaco-dialog-box').first().textContent({ timeout: 500 }).catch(() => null);
      process.stderr.write(`openPalette(${text}): the palette closed under the typing${dialog ? `, a dialog is up: ${dialog}` : ''}; opening it again\n`);
      await page.keyboard.press('Escape');
    }
  }
}

/** Runs a command by its palette title (`Intent Governor: Open Trace Inspector`), as a human would. */
export async function runPaletteCommand(page: Page, title: string): Promise<void> {
  await openPalette(page, `>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().click();
}

/**
 * Runs a palette command that opens a quick pick, then clicks the row showing `row`. The pick closes when its
 * window loses focus (a tab brought up by another test, a toast); the row is then gone before the click, so the
 * command is run again, twice at most, and the interruption named on stderr.
 */
export async function pickAfterPaletteCommand(page: Page, title: string, row: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.bringToFront();
    await runPaletteCommand(page, title);
    try {
      await page.locator('.quick-input-list .monaco-list-row', { hasText: row }).first().click({ timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      process.stderr.write(`pickAfterPaletteCommand(${title}): the pick closed before ${row} was clicked; running the command again\n`);
      await page.keyboard.press('Escape');
    }
  }
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
