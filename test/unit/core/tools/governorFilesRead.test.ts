import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeOf, createHarness, type Harness } from '../../../support/governorHarness';
import { runGovernor } from '../../../support/runGovernor';

/**
 * A home folder opened as the workspace holds the governor's home: read_file and list_files, through the real
 * pipeline, refuse it by its real path (a signing key made by `governor keys init` lies there).
 */
describe('read_file and list_files refuse the governor’s own files', function () {
  this.timeout(60_000);
  let h: Harness;
  let anchors: string;
  let saved: NodeJS.ProcessEnv;

  before(async () => {
    saved = { ...process.env };
    h = await createHarness({ files: { 'src/auth/login.ts': 'export {};\n' } });
    anchors = await mkdtemp(join(tmpdir(), 'ig-govread-anchors-'));
    const made = await runGovernor(['keys', 'init', '--name', 'alice', '--workspace', h.root], { anchorDir: anchors, home: h.root, env: { INTENT_GOVERNOR_HOME: '' } });
    assert.equal(made.code, 0, made.stderr);
    assert.match(await readFile(join(h.root, '.intent-governor', 'keys', 'signer.json'), 'utf8'), /PRIVATE/);
    // This process's governor sees the workspace as HOME, as VS Code opened on ~ would.
    process.env.HOME = h.root;
    delete process.env.INTENT_GOVERNOR_HOME;
    await symlink(join(h.root, '.intent-governor'), join(h.root, 'src', 'auth', 'gov'));
  });
  after(async () => {
    process.env = saved;
    await h.dispose();
    await rm(anchors, { recursive: true, force: true });
  });

  for (const path of ['.intent-governor/keys/signer.json', 'src/../.intent-governor/keys/signer.json', 'src/auth/gov/keys/signer.json', '.intent-governor/run']) {
    it(`read_file ${path} is PROTECTED_PATH and returns no key`, async () => {
      const result = await h.call('read_file', { path });
      assert.equal(codeOf(result), 'PROTECTED_PATH');
      assert.ok(!result.ok);
      assert.match(result.error.message, /is in the (trace signing keys|governor's home): the governor's own files .* are not for agents/);
      assert.doesNotMatch(JSON.stringify(result), /PRIVATE/);
    });
  }

  it('list_files of the governor’s home, or a recursive listing of a folder holding it, is refused', async () => {
    assert.equal(codeOf(await h.call('list_files', { path: '.intent-governor/run' })), 'PROTECTED_PATH');
    const whole = await h.call('list_files', { recursive: true });
    assert.equal(codeOf(whole), 'PROTECTED_PATH');
    assert.ok(!whole.ok);
    assert.match(whole.error.message, /"\." holds the governor's home/);
  });

  it('other files and folders of the workspace read and list as before', async () => {
    const read = await h.call('read_file', { path: 'src/auth/login.ts' });
    assert.equal(codeOf(read), 'ok');
    assert.equal(codeOf(await h.call('list_files', { path: 'src', recursive: false })), 'ok');
    assert.equal(codeOf(await h.call('list_files', {})), 'ok');
  });
});
