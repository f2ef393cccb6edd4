import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openWorkbench, startCodeServer, type CodeServer, type Workbench } from '../vscode/codeServer';
import { provision, repoRoot, type Provisioned } from '../vscode/provisioned';
import { runPaletteCommand, webviewFrame } from '../vscode/workbenchActions';
import { waitFor } from './e2eSupport';

const shots = join(repoRoot, 'test-results', 'vsix-install');

/**
 * `npm run package` in a copy of the working tree (tracked files as they are now, node_modules linked), so the
 * production build and intent-governor.vsix land in the temp folder and never touch the shared dist/.
 */
function packageVsix(temp: string): string {
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(listed.status, 0, listed.stderr);
  const files = listed.stdout.split('\0').filter((file) => file && existsSync(join(repoRoot, file)));
  const copy = join(temp, 'source');
  mkdirSync(copy);
  const tar = spawnSync('sh', ['-c', `tar -cf - --null -T - | tar -xf - -C '${copy}'`], { cwd: repoRoot, input: files.join('\0') });
  assert.equal(tar.status, 0, String(tar.stderr));
  symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const packaged = spawnSync('npm', ['run', 'package'], { cwd: copy, encoding: 'utf8' });
  assert.equal(packaged.status, 0, `npm run package failed:\n${packaged.stdout}\n${packaged.stderr}`);
  const vsix = join(copy, 'intent-governor.vsix');
  assert.ok(existsSync(vsix), 'npm run package wrote no intent-governor.vsix');
  return vsix;
}

/** `code-server --install-extension`, the way a user installs a VSIX from the command line. */
function installVsix(provisioned: Provisioned, vsix: string, extensionsDir: string, userDataDir: string): string {
  const args = [provisioned.paths.codeServerEntry, '--config', provisioned.paths.config, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix];
  const installed = spawnSync(provisioned.paths.node, args, { encoding: 'utf8', timeout: 120_000 });
  assert.equal(installed.status, 0, `--install-extension failed:\n${installed.stdout}\n${installed.stderr}`);
  return installed.stdout;
}

/**
 * VS Code's details page shows README images from http(s) only (its sanitizer drops relative and data: sources),
 * and this machine is offline: image requests to the repository's own raw files (raw.githubusercontent.com or
 * github.com/.../raw/) are answered from the tree that was packaged, so a link to a file the repository does not
 * have stays broken. Every other request from the browser to the internet is refused.
 */
async function serveRepositoryImages(page: Page, source: string): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { repository: { url: string } };
  const repository = new URL(manifest.repository.url.replace(/\.git$/, '')).pathname.slice(1);
  const raw = new RegExp(`^https://(?:raw\\.githubusercontent\\.com/${repository}|github\\.com/${repository}/raw)/[^/]+/(.+)$`);
  await page.context().route(/^https?:\/\/(?!127\.0\.0\.1)/, async (route) => {
    const path = raw.exec(route.request().url())?.[1];
    const file = path && join(source, decodeURIComponent(path));
    if (file && file.startsWith(`${source}/`) && existsSync(file)) await route.fulfill({ path: file });
    else await route.abort('internetdisconnected');
  });
}

/**
 * Issue 25: the VSIX's details page was the contributor README with hot-linked images. Packaged and installed
 * into a fresh code-server, its page in the Extensions view must be the user README with every image loaded.
 */
describe('e2e: the VSIX installed into a fresh VS Code shows the user README with working images', function () {
  let temp: string;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  let page: Page;
  let source: string;

  before(async function () {
    this.timeout(600_000);
    mkdirSync(shots, { recursive: true });
    const provisioned = provision();
    temp = mkdtempSync(join(tmpdir(), 'ig-e2e-vsix-'));
    const vsix = packageVsix(temp);
    source = join(temp, 'source');
    const extensionsDir = join(temp, 'extensions');
    const userDataDir = join(temp, 'user-data');
    const output = installVsix(provisioned, vsix, extensionsDir, userDataDir);
    assert.match(output, /intent-governor/i, `no install reported:\n${output}`);
    const workspace = join(temp, 'workspace');
    mkdirSync(workspace);
    server = await startCodeServer({
      workspace,
      extensionsDir,
      userDataDir,
      env: { INTENT_GOVERNOR_HOME: join(temp, 'governor-home'), INTENT_GOVERNOR_ANCHOR_DIR: join(temp, 'anchors') },
    });
    workbench = await openWorkbench(server.url, workspace);
    page = workbench.page;
    await serveRepositoryImages(page, source);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await page?.screenshot({ path: join(shots, 'failed.png') }).catch(() => undefined);
  });

  after(async () => {
    await workbench?.close();
    await server?.stop();
    if (temp) rmSync(temp, { recursive: true, force: true });
  });

  it('lists Intent Governor among the installed extensions and its details page is the user README, images loaded', async () => {
    // The installed extension's status item: its host is up and the workbench has settled (the palette lists all).
    await page.locator('.statusbar-item', { hasText: 'no intent' }).first().waitFor({ state: 'visible', timeout: 120_000 });
    await runPaletteCommand(page, 'Extensions: Show Installed Extensions');
    const item = page.locator('.extensions-viewlet .extension-list-item', { hasText: 'Intent Governor' }).first();
    await item.waitFor({ state: 'visible', timeout: 60_000 });
    await item.click();
    await page.locator('.extension-editor .header .name', { hasText: 'Intent Governor' }).first().waitFor({ state: 'visible', timeout: 30_000 });

    const readme = webviewFrame(page);
    await readme.locator('h2', { hasText: 'First steps' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    const text = await readme.locator('body').innerText();
    assert.match(text, /What is guaranteed, and what is not/, 'the user README heading is missing');
    assert.doesNotMatch(text, /npm install && npm start/, 'the details page shows the contributor steps');

    const images = readme.locator('img');
    const count = await images.count();
    assert.ok(count >= 2, `the README shows ${count} images, expected its screenshots`);
    for (let i = 0; i < count; i++) await images.nth(i).scrollIntoViewIfNeeded();
    // An image VS Code's sanitizer dropped keeps its alt and loses its src: report both.
    const notLoaded = () =>
      images.evaluateAll((all) =>
        (all as unknown as { complete: boolean; naturalWidth: number; alt: string; getAttribute(name: string): string | null }[]).filter((img) => !(img.complete && img.naturalWidth > 0)).map((img) => `${img.alt || '(no alt)'} <${img.getAttribute('src') ?? 'no src'}>`),
      );
    const broken = await waitFor('every README image to load', async () => ((await notLoaded()).length === 0 ? [] : undefined), 30_000).catch(notLoaded);
    assert.deepEqual(broken, [], `README images that did not load: ${broken.join('; ')}`);
    await images.first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'vsix-details-page.png') });
  });
});
