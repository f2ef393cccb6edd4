import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GovernedResult } from '../../../../src/core/flow/callRequest';
import { Governor } from '../../../../src/core/governor';
import type { GovernancePolicy } from '../../../../src/core/governorServices';
import { commandHash, FileHookApprovals } from '../../../../src/core/userHooks/hookApprovals';
import type { ApprovalRequest, Approver } from '../../../../src/core/approval/approver';
import { createNodeServices } from '../../../../src/core/nodeServices';
import { RecordingLogger, RecordingTrace, SAMPLE_INTENTS, ScriptedApprover } from '../../../support/governorHarness';

interface World {
  root: string;
  governor: Governor;
  approver: ScriptedApprover;
  logger: RecordingLogger;
  hooks(yaml: string): Promise<void>;
  write(path: string, content?: string): Promise<GovernedResult>;
}

const worlds: string[] = [];

async function world(policy: Partial<GovernancePolicy> = {}, approverFor?: Approver): Promise<World & { approvalsDir: string }> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'ig-userhooks-')));
  const approvalsDir = await mkdtemp(join(tmpdir(), 'ig-approvals-'));
  worlds.push(root, approvalsDir, `${approvalsDir}.home`);
  await mkdir(join(root, '.orchestration'), { recursive: true });
  await writeFile(join(root, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
  const approver = new ScriptedApprover();
  const logger = new RecordingLogger();
  const services = { ...(await createNodeServices({ root, approver: approverFor ?? approver, trace: new RecordingTrace(), logger, policy })), hookApprovals: new FileHookApprovals(approvalsDir), governorHome: `${approvalsDir}.home` };
  services.sessions.bindIntent('s1', 'auth-refactor');
  const governor = new Governor(services);
  return {
    root,
    approvalsDir,
    governor,
    approver,
    logger,
    hooks: (yaml) => writeFile(join(root, '.orchestration', 'hooks.yaml'), yaml),
    write: (path, content = 'x\n') => governor.run({ tool: 'write_file', input: { path, content }, session_id: 's1', agent: { name: 'test-agent' } }, { mode: 'execute' }),
  };
}

function errorOf(result: GovernedResult): { code: string; message: string } | undefined {
  return result.ok ? undefined : result.error;
}

function psArgs(): string {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
}

describe('user command hooks (.orchestration/hooks.yaml)', () => {
  after(async () => {
    for (const dir of worlds) await rm(dir, { recursive: true, force: true });
  });

  it('a pre-hook that exits 1 blocks the call (fail closed), once a human approved the hook', async () => {
    const w = await world();
    await w.hooks('hooks:\n  - name: gate\n    event: pre\n    matcher: write_file\n    command: "echo broken >&2; exit 1"\n');
    w.approver.script(true); // approves running the hook, once
    const result = await w.write('src/auth/a.ts');
    assert.equal(errorOf(result)?.code, 'HOOK_ERROR');
    assert.match(errorOf(result)!.message, /The hook 'gate' exited with code 1: broken/);
    await assert.rejects(stat(join(w.root, 'src/auth/a.ts')));
    assert.equal(w.approver.requests.length, 1);
    assert.match(w.approver.requests[0].title, /Run the hook 'gate' from .orchestration\/hooks.yaml/);
  });

  it('exit 2 blocks with stderr as the reason the model sees; JSON deny and ask work like Claude Code hooks', async () => {
    const w = await world();
    await w.hooks(`hooks:
  - name: no-billing
    matcher: "write_file|edit_file"
    command: "echo 'billing is frozen' >&2; exit 2"
  - name: json
    matcher: run_command
    command: "echo '{\\"decision\\": \\"ask\\", \\"reason\\": \\"commands need a look\\"}'"
`);
    w.approver.script(true, true);
    const blocked = await w.write('src/auth/a.ts');
    assert.equal(errorOf(blocked)?.code, 'HOOK_BLOCKED');
    assert.equal(errorOf(blocked)?.message, "Blocked by the hook 'no-billing': billing is frozen");
    const report = await w.governor.run({ tool: 'run_command', input: { command: 'ls' }, session_id: 's1', agent: { name: 'a' } }, { mode: 'judge' });
    assert.equal(report.decision, 'ask');
    assert.match(report.message ?? '', /The hook 'json' asks: commands need a look/);
  });

  it("a hook printing Claude Code's output is obeyed: permissionDecision deny and continue: false refuse the call", async () => {
    const w = await world();
    await w.hooks(`hooks:
  - name: claude-deny
    matcher: write_file
    command: "echo '{\\"hookSpecificOutput\\": {\\"hookEventName\\": \\"PreToolUse\\", \\"permissionDecision\\": \\"deny\\", \\"permissionDecisionReason\\": \\"no writes on Fridays\\"}}'"
  - name: claude-stop
    matcher: run_command
    command: "echo '{\\"continue\\": false, \\"stopReason\\": \\"the build is red\\"}'"
`);
    w.approver.script(true, true);
    const write = await w.write('src/auth/a.ts');
    assert.equal(errorOf(write)?.code, 'HOOK_BLOCKED');
    assert.equal(errorOf(write)?.message, "Blocked by the hook 'claude-deny': no writes on Fridays");
    await assert.rejects(stat(join(w.root, 'src/auth/a.ts')));
    const report = await w.governor.run({ tool: 'run_command', input: { command: 'ls' }, session_id: 's1', agent: { name: 'a' } }, { mode: 'judge' });
    assert.equal(report.decision, 'deny');
    assert.match(report.message ?? '', /the build is red/);
  });

  it('a hook that modifies the input is judged by the guards afterwards', async () => {
    const w = await world();
    await w.hooks(`hooks:
  - name: redirect
    matcher: write_file
    command: "echo '{\\"modify\\": {\\"path\\": \\"src/billing/a.ts\\", \\"content\\": \\"x\\"}}'"
`);
    w.approver.script(true);
    assert.equal(errorOf(await w.write('src/auth/a.ts'))?.code, 'SCOPE_VIOLATION');
  });

  it('kills `sleep 999 & sleep 999` and its children at the timeout, and refuses the call', async () => {
    const w = await world();
    await w.hooks('hooks:\n  - name: slow\n    matcher: write_file\n    timeout_ms: 500\n    command: "sleep 987 & sleep 987"\n');
    w.approver.script(true);
    const started = Date.now();
    const result = await w.write('src/auth/a.ts');
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    assert.equal(errorOf(result)?.code, 'HOOK_ERROR');
    assert.match(errorOf(result)!.message, /did not finish within 500 ms/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.doesNotMatch(psArgs(), /sleep 987/);
  });

  it('caps 100 MB of hook output and refuses the call instead of buffering it', async () => {
    const w = await world();
    await w.hooks('hooks:\n  - name: chatty\n    matcher: write_file\n    command: "head -c 100000000 /dev/zero"\n');
    w.approver.script(true);
    const started = Date.now();
    const result = await w.write('src/auth/a.ts');
    assert.ok(Date.now() - started < 10_000);
    assert.equal(errorOf(result)?.code, 'HOOK_ERROR');
    assert.match(errorOf(result)!.message, /wrote more than 64 KiB/);
  });

  it('runs no hook in an untrusted workspace', async () => {
    const w = await world({ trusted: false });
    await w.hooks('hooks:\n  - name: marker\n    matcher: "*"\n    command: "touch ran.txt; exit 2"\n');
    const report = await w.governor.run({ tool: 'write_file', input: { path: 'src/auth/a.ts', content: 'x' }, session_id: 's1', agent: { name: 'a' } }, { mode: 'judge' });
    assert.notEqual(report.code, 'HOOK_BLOCKED');
    await assert.rejects(stat(join(w.root, 'ran.txt')));
    assert.equal(w.approver.requests.length, 0);
  });

  it('asks once per command: approved hooks run silently, a changed command asks again', async () => {
    const w = await world();
    await w.hooks('hooks:\n  - name: log\n    matcher: write_file\n    command: "echo one >> hook.log"\n');
    w.approver.script(true);
    assert.equal(errorOf(await w.write('src/auth/a.ts')), undefined);
    assert.equal(errorOf(await w.write('src/auth/b.ts')), undefined);
    assert.equal(w.approver.requests.length, 1);
    await w.hooks('hooks:\n  - name: log\n    matcher: write_file\n    command: "echo two >> hook.log"\n');
    w.approver.script(true);
    assert.equal(errorOf(await w.write('src/auth/c.ts')), undefined);
    assert.equal(w.approver.requests.length, 2);
    assert.equal(await readFile(join(w.root, 'hook.log'), 'utf8'), 'one\none\ntwo\n');
  });

  it('an unapproved hook does not run, and the call then needs a human', async () => {
    const w = await world();
    await w.hooks('hooks:\n  - name: marker\n    matcher: write_file\n    command: "touch ran.txt"\n');
    w.approver.script(false); // the human says no to running the hook
    const report = await w.governor.run({ tool: 'write_file', input: { path: 'src/auth/a.ts', content: 'x' }, session_id: 's1', agent: { name: 'a' } }, { mode: 'judge' });
    assert.equal(report.decision, 'ask');
    assert.match(report.message ?? '', /'marker' from \.orchestration\/hooks\.yaml is not approved/);
    await assert.rejects(stat(join(w.root, 'ran.txt')));
  });

  it('an approver with no person behind it (a CLI policy) is never asked about a hook, and nothing is persisted', async () => {
    const asked: ApprovalRequest[] = [];
    const policy: Approver = {
      async approve(request) {
        asked.push(request);
        return { approved: true, approver: 'cli:--approve always' };
      },
    };
    const w = await world({}, policy);
    await w.hooks('hooks:\n  - name: marker\n    matcher: write_file\n    command: "touch ran.txt"\n');
    const report = await w.governor.run({ tool: 'write_file', input: { path: 'src/auth/a.ts', content: 'x' }, session_id: 's1', agent: { name: 'a' } }, { mode: 'judge' });
    assert.equal(report.decision, 'ask');
    assert.match(report.message ?? '', /'marker' from \.orchestration\/hooks\.yaml is not approved \(only a person approves it: in VS Code's approval dialog/);
    assert.deepEqual(asked, []);
    await assert.rejects(stat(join(w.root, 'ran.txt')));
    assert.deepEqual(await readdir(w.approvalsDir), []);
  });

  it('a broken hooks file refuses every call until fixed', async () => {
    const w = await world();
    await w.hooks('hooks:\n  - event: sometimes\n    command: x\n');
    const result = await w.write('src/auth/a.ts');
    assert.equal(errorOf(result)?.code, 'HOOK_ERROR');
    assert.match(errorOf(result)!.message, /event must be 'pre' or 'post'/);
  });

  it('post-hooks get the outcome on stdin and never change it; unapproved ones are skipped', async () => {
    const w = await world();
    const command = 'cat > post.json; exit 1';
    await w.hooks(`hooks:\n  - name: audit\n    event: post\n    matcher: write_file\n    command: "${command}"\n  - name: other\n    event: post\n    command: "touch other.txt"\n`);
    await w.governor.services.hookApprovals!.approve(w.root, commandHash(command), command);
    const result = await w.write('src/auth/a.ts');
    assert.equal(errorOf(result), undefined);
    const input = JSON.parse(await readFile(join(w.root, 'post.json'), 'utf8'));
    assert.equal(input.hook_event_name, 'PostToolUse');
    assert.equal(input.tool_name, 'write_file');
    assert.equal(input.tool_response.status, 'success');
    await assert.rejects(stat(join(w.root, 'other.txt')));
    assert.ok(w.logger.lines.some((l) => l.includes("hook 'other' (PostToolUse, .orchestration/hooks.yaml) is not approved")));
  });
});
