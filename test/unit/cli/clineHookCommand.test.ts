import { strict as assert } from 'node:assert';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Harness } from '../../support/governorHarness';
import { headlessHookWorkspace, LOGIN, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { hookFixture, runHook } from '../../support/runHook';

/** `node dist/hook.js hook cline` as Cline's hook scripts run it (what `governor hooks install --agent cline` writes), headless. */
describe('governor hook cline (headless, as Cline runs it)', () => {
  let workspace: HeadlessHookWorkspace;
  let h: Harness;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => ({ h, env } = workspace = await headlessHookWorkspace()));
  afterEach(() => workspace.dispose());

  /** A Cline payload aimed at the harness, with another tool call where given. */
  const payload = (fixture: string, call?: { name: string; input: Record<string, unknown> }) => {
    const value = JSON.parse(hookFixture('cline', fixture, h.root)) as Record<string, Record<string, unknown>>;
    const key = value.tool_result ? 'tool_result' : 'tool_call';
    if (call) value[key] = { ...value[key], ...call };
    return JSON.stringify(value);
  };
  // Cline runs the hook in the session's folder; here the workspace is named instead.
  const hook = (stdin: string) => runHook('cline', stdin, ['--intent', 'auth-refactor', '--workspace', h.root], env);

  it('lets an in-scope editor create through by printing nothing, and its tool_result traces it as cline', async () => {
    const pre = await hook(payload('pre-editor'));
    assert.equal(pre.code, 0, pre.stderr);
    assert.equal(pre.stdout, '');
    await writeFile(join(h.root, 'src/auth/token.ts'), 'export const token = 1;\n');
    const post = await hook(payload('post-editor'));
    assert.equal(post.code, 0, post.stderr);
    const records = workspace.traceRecords();
    assert.deepEqual(records.map((r) => [r.files[0].path, r.metadata.agent, r.metadata.intent_id]), [['src/auth/token.ts', 'cline', 'auth-refactor']]);
  });

  it('cancels an out-of-scope write with the reason, in the JSON Cline reads', async () => {
    const run = await hook(payload('pre-editor', { name: 'editor', input: { path: join(h.root, 'src/billing/x.ts'), new_text: 'x' } }));
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { cancel: boolean; errorMessage: string };
    assert.equal(out.cancel, true);
    assert.match(out.errorMessage, /^\[SCOPE_VIOLATION\] "src\/billing\/x\.ts" is outside the owned scope of intent auth-refactor/);
  });

  it("cancels a replace_in_file whose SEARCH block is not in the file", async () => {
    const diff = '------- SEARCH\n  return 42;\n=======\n  return true;\n+++++++ REPLACE\n';
    const run = await hook(payload('pre-editor', { name: 'replace_in_file', input: { path: join(h.root, 'src/auth/login.ts'), diff } }));
    const out = JSON.parse(run.stdout) as { cancel: boolean; errorMessage: string };
    assert.equal(out.cancel, true);
    assert.match(out.errorMessage, /edits\[0\]\.search was not found in src\/auth\/login\.ts/);
    assert.equal(await readFile(join(h.root, 'src/auth/login.ts'), 'utf8'), LOGIN);
  });

  it('cancels, never stays silent, on input it cannot read', async () => {
    const run = await hook('not json');
    assert.equal(run.code, 0);
    assert.equal((JSON.parse(run.stdout) as { cancel: boolean }).cancel, true);
  });
});
