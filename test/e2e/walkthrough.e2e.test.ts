import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from '../vscode/provisioned';
import { runPaletteCommand } from '../vscode/workbenchActions';
import { launchGovernedVsCode, shoot, waitFor, type GovernedVsCode } from './e2eSupport';

const shots = join(repoRoot, 'test-results', 'walkthrough');

/** Whether the walkthrough shows step `id` as done (its checkbox), as a person sees it. */
async function stepDone(page: Page, id: string): Promise<boolean> {
  const box = page.locator(`.gettingStartedContainer [data-done-step-id$="#${id}"]`).first();
  if (!(await box.count())) return false;
  return (await box.getAttribute('aria-checked')) === 'true' || /\bcomplete\b/.test((await box.getAttribute('class')) ?? '');
}

/**
 * The first-run walkthrough as a new user meets it on the demo: its steps tick from what is true (the demo has a
 * plan), and a command run from the palette while the Get started tab is in front keeps its picker open.
 */
describe('e2e: the walkthrough in front, the intent picker from the palette', function () {
  let vscode: GovernedVsCode | undefined;
  let page: Page;

  before(async function () {
    this.timeout(600_000);
    mkdirSync(shots, { recursive: true });
    vscode = await launchGovernedVsCode({ prefix: 'ig-e2e-walkthrough-', settings: { 'intentGovernor.openWalkthroughOnFirstRun': true } });
    page = vscode.workbench.page;
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await page.screenshot({ path: join(shots, 'failed.png') }).catch(() => undefined);
  });

  after(async () => {
    await vscode?.stop();
  });

  it('opens on the first run and ticks "Write or generate the plan", since the demo has one', async () => {
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough.getByText('Get started with Intent Governor').first().waitFor({ state: 'visible', timeout: 60_000 });
    await waitFor('the plan step to be ticked', async () => ((await stepDone(page, 'plan')) ? true : undefined), 30_000);
    assert.equal(await stepDone(page, 'pick'), false, 'the pick step is ticked before anyone picked');
    await shoot(page, shots, 'walkthrough-plan-ticked.png');
  });

  it('Select Active Intent from the palette keeps its picker open with the Get started tab in front, and the pick ticks its step', async () => {
    assert.ok(await page.locator('.gettingStartedContainer').isVisible(), 'the Get started tab is not in front');
    await runPaletteCommand(page, 'Intent Governor: Select Active Intent');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'auth-refactor' }).first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    // The reported picker closed after about 200 ms: still open well after that, with nothing touched.
    await page.waitForTimeout(1500);
    assert.ok(await row.isVisible(), 'the intent picker closed on its own');
    await row.click();
    await page.locator('.statusbar-item', { hasText: 'auth-refactor' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await waitFor('the pick step to be ticked', async () => ((await stepDone(page, 'pick')) ? true : undefined), 30_000);
    await shoot(page, shots, 'walkthrough-picked.png');
  });
});
