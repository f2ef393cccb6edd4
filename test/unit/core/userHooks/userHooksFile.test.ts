import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Governor } from '../../../../src/core/governor';
import { commandHash, FileHookApprovals } from '../../../../src/core/userHooks/hookApprovals';
import { loadHookLayers } from '../../../../src/core/userHooks/hookLayers';
import { createNodeServices } from '../../../../src/core/nodeServices';
import { RecordingLogger, RecordingTrace, SAMPLE_INTENTS, ScriptedApprover } from '../../../support/governorHarness';

describe('.orchestration/hooks.yaml and the hook approvals, whatever is put at their paths', () => {
  let root: string;
  let approvalsDir: string;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'ig-hooksfile-')));
    approvalsDir = await mkdtemp(join(tmpdir(), 'ig-approvals-'));
    await mkdir(join(root, '.orchestration'), { recursive: true });
    await writeFile(join(root, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(approvalsDir, { recursive: true, force: true });
  });

  async function governor(approver = new ScriptedApprover()): Promise<Governor> {
    const services = { ...(await createNodeServices({ root, approver, trace: new RecordingTrace(), logger: new RecordingLogger() })), hookApprovals: new FileHookApprovals(approvalsDir), governorHome: join(approvalsDir, 'home') };
    services.sessions.bindIntent('s1', 'auth-refactor');
    return new Governor(services);
  }

  it('a FIFO as the hooks file refuses every call at once, saying what it is (fail closed, no hang)', async () => {
    execFileSync('mkfifo', [join(root, '.orchestration', 'hooks.yaml')]);
    const result = await (await governor()).run({ tool: 'write_file', input: { path: 'src/auth/a.ts', content: 'x' }, session_id: 's1', agent: { name: 'a' } }, { mode: 'execute' });
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'HOOK_ERROR');
    assert.match(result.error.message, /\.orchestration\/hooks\.yaml: the file is a FIFO \(named pipe\), not a regular file: refused.*the call is refused until a human fixes it/);
  });

  it('a hooks file over the cap is refused, not parsed', async () => {
    await writeFile(join(root, '.orchestration', 'hooks.yaml'), `# ${'x'.repeat(300 * 1024)}\nhooks: []\n`);
    const loaded = loadHookLayers(root, { home: join(approvalsDir, 'home'), door: 'vscode' });
    assert.equal(loaded.hooks.length, 0);
    assert.match(loaded.problems[0]?.message ?? '', /over the 262144-byte limit: refused/);
  });

  it('a FIFO in place of the approvals file approves nothing and does not hang: the human is asked', async () => {
    await writeFile(join(root, '.orchestration', 'hooks.yaml'), 'hooks:\n  - name: gate\n    matcher: write_file\n    command: "exit 0"\n');
    const approvals = new FileHookApprovals(approvalsDir);
    await approvals.approve(root, commandHash('exit 0'), 'exit 0');
    const [file] = execFileSync('ls', [approvalsDir], { encoding: 'utf8' }).trim().split('\n');
    await rm(join(approvalsDir, file));
    execFileSync('mkfifo', [join(approvalsDir, file)]);
    assert.equal(await approvals.isApproved(root, commandHash('exit 0')), false);
    const approver = new ScriptedApprover([false, false]);
    const result = await (await governor(approver)).run({ tool: 'write_file', input: { path: 'src/auth/a.ts', content: 'x' }, session_id: 's1', agent: { name: 'a' } }, { mode: 'execute' });
    assert.ok(approver.requests.length >= 1);
    assert.match(approver.requests[0].title, /Run the hook 'gate' from .orchestration\/hooks.yaml/);
    assert.ok(!result.ok);
  });
});
