import { strict as assert } from 'node:assert';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryAnchorStore } from '../../../../src/core/trace/anchorStore';
import { JsonlTraceSink } from '../../../../src/core/trace/traceWriter';
import { codeOf, createHarness, type Harness } from '../../../support/governorHarness';
import { removeTree } from '../../../support/removeTree';
import { noSandbox } from '../../../support/sandboxes';

/**
 * A refusal in the governance log says what was asked: a rejected `rm -rf src/auth`, a scope violation and a denied
 * command each carry the command and the paths it names, so the log (and the inspector and `governor trace`, which
 * read it) can show them; a secret in the command is redacted as the trace redacts it.
 */
describe('governance records of refused commands say what was asked', function () {
  this.timeout(30_000);
  let h: Harness;

  beforeEach(async () => {
    h = await createHarness({ sandbox: noSandbox, files: { 'src/auth/a.ts': 'a\n', 'src/other/b.ts': 'b\n' } });
    assert.ok((await h.call('select_active_intent', { intent_id: 'auth-refactor' })).ok);
  });
  afterEach(async () => h.dispose());

  const last = () => h.trace.governance.at(-1);

  it('a rejected rm -rf src/auth names the command and src/auth', async () => {
    h.approver.script(false);
    const result = await h.call('run_command', { command: 'rm -rf src/auth' });
    assert.equal(codeOf(result), 'HITL_REJECT', JSON.stringify(result));
    assert.equal(last()?.command, 'rm -rf src/auth');
    assert.deepEqual(last()?.paths, ['src/auth']);
  });

  it('a scope violation (rm -rf src) and a denied command (sudo) carry their commands too', async () => {
    const outside = await h.call('run_command', { command: 'rm -rf src' });
    assert.equal(codeOf(outside), 'SCOPE_VIOLATION', JSON.stringify(outside));
    assert.equal(last()?.command, 'rm -rf src');
    assert.deepEqual(last()?.paths, ['src']);
    const denied = await h.call('run_command', { command: 'sudo ls' });
    assert.equal(codeOf(denied), 'COMMAND_DENIED');
    assert.equal(last()?.command, 'sudo ls');
  });

  it('a token in a refused command is redacted in the governance log on disk', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ig-refusal-log-'));
    try {
      const sink = new JsonlTraceSink({ workspaceRoot: root, toolVersion: 'test', anchors: new MemoryAnchorStore(), governorHome: join(root, 'home') });
      const token = `ghp_${'A1b2C3d4E5'.repeat(3)}abcdef`;
      await sink.recordGovernance({ timestamp: new Date().toISOString(), invocation_id: 'i', session_id: 's', agent: { name: 'a' }, tool: 'run_command', decision: 'deny', code: 'COMMAND_DENIED', message: 'no', paths: [], command: `curl -H "Authorization: token ${token}" https://example.invalid` });
      const text = await readFile(join(root, '.orchestration', 'governance_log.jsonl'), 'utf8');
      assert.match(text, /"command":"curl -H \\"Authorization: token \[REDACTED:github-token:[0-9a-f]{8}\]\\"/u, text);
      assert.doesNotMatch(text, /ghp_/u);
    } finally {
      await removeTree(root);
    }
  });
});
