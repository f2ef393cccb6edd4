import { strict as assert } from 'node:assert';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryBeforeStash } from '../../../../src/core/bridge/beforeStash';
import { NativeToolBridge } from '../../../../src/core/bridge/nativeToolBridge';
import type { BridgeRequest } from '../../../../src/core/agents/common/nativeCall';
import { contentHash } from '../../../../src/core/contentHash';
import type { LeftBehind } from '../../../../src/core/flow/callRequest';
import { Governor } from '../../../../src/core/governor';
import type { CallOutcome } from '../../../../src/core/pipeline/hookTypes';
import { toolError } from '../../../../src/core/toolError';
import { FileHookApprovals } from '../../../../src/core/userHooks/hookApprovals';
import { createHarness, type Harness } from '../../../support/governorHarness';

const LOGIN = 'export function login() {\n  return false;\n}\n';
const agent = { name: 'claude-code' };

/** What reached the post-chain: every refusal and every recorded change passes through it. */
function postSpy(h: Harness): { tool: string; outcome: CallOutcome }[] {
  const seen: { tool: string; outcome: CallOutcome }[] = [];
  h.governor.engine.registerPost({ name: 'spy', run: ({ call, outcome }) => void seen.push({ tool: call.tool, outcome }) });
  return seen;
}

/** A governance record as it lands in governance_log.jsonl (fields left undefined are not written). */
const onDisk = (record: unknown) => JSON.parse(JSON.stringify(record)) as Record<string, unknown>;

describe('Governor.run: one flow for every door', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': LOGIN } });
    h.governor.services.sessions.bindIntent('s1', 'auth-refactor');
  });
  afterEach(async () => h.dispose());

  it('judge: says what the chain would do, asks nobody and records nothing', async () => {
    const seen = postSpy(h);
    const report = await h.governor.run({ tool: 'delete_file', input: { path: 'src/auth/login.ts', expected_content_hash: contentHash(LOGIN) }, session_id: 's1', agent }, { mode: 'judge' });
    assert.equal(report.decision, 'ask');
    assert.equal(h.approver.requests.length, 0);
    const unknown = await h.governor.run({ tool: 'format_disk', input: {}, session_id: 's1', agent }, { mode: 'judge' });
    assert.deepEqual([unknown.decision, unknown.code], ['deny', 'INVALID_INPUT']);
    assert.deepEqual([seen.length, h.trace.governance.length, h.trace.mutations.length], [0, 0, 0]);
  });

  it('execute: a tool that does not exist is refused by the post-chain like any refusal', async () => {
    const seen = postSpy(h);
    const result = await h.governor.run({ tool: 'format_disk', input: { all: true }, session_id: 's1', agent, invocation_id: 'inv-1' }, { mode: 'execute' });
    assert.equal(result.ok ? 'ok' : result.error.code, 'INVALID_INPUT');
    assert.deepEqual(seen.map((s) => [s.tool, s.outcome.status]), [['format_disk', 'blocked']]);
    const { timestamp: _t, ...record } = onDisk(h.trace.governance[0]);
    assert.deepEqual(record, {
      invocation_id: 'inv-1',
      session_id: 's1',
      agent,
      tool: 'format_disk',
      intent_id: 'auth-refactor',
      decision: 'deny',
      code: 'INVALID_INPUT',
      message: result.ok ? '' : result.error.message,
      paths: [],
    });
  });

  it('authorize with a refusal the door brings: no hook judges it, the post-chain records it under the name the agent used', async () => {
    const seen = postSpy(h);
    let preRan = false;
    h.governor.engine.registerPre({ name: 'pre-spy', run: () => ((preRan = true), { decision: { kind: 'allow' } }) });
    const refusal = toolError('HOOK_BLOCKED', "Blocked by the hook 'fridays': no writes on Fridays", { hook: 'fridays' });
    const answer = await h.governor.run({ tool: 'Write', input: { file_path: join(h.root, 'src/auth/a.ts') }, session_id: 's1', agent, invocation_id: 'k#0' }, { mode: 'authorize', askHuman: true, refusal });
    assert.equal(answer.decision, 'deny');
    assert.equal(preRan, false);
    assert.deepEqual(seen.map((s) => [s.tool, s.outcome.status]), [['Write', 'blocked']]);
    const { timestamp: _t, ...record } = onDisk(h.trace.governance[0]);
    assert.deepEqual(record, { invocation_id: 'k#0', session_id: 's1', agent, tool: 'Write', intent_id: 'auth-refactor', decision: 'deny', code: 'HOOK_BLOCKED', message: refusal.message, paths: [] });
  });

  it("authorize: an agent's write is judged from one read of its target, and the answer carries what was read", async () => {
    const abs = join(h.root, 'src/auth/login.ts');
    const workspace = h.governor.services.workspace;
    const read = workspace.readFile.bind(workspace);
    const reads: string[] = [];
    workspace.readFile = (path) => (reads.push(path), read(path));
    const answer = await h.governor.run({ tool: 'edit_file', input: { path: abs, edits: [{ search: 'false', replace: 'true', all: true }] }, session_id: 's1', agent, invocation_id: 'k#0' }, { mode: 'authorize', askHuman: false });
    assert.equal(answer.decision, 'allow');
    assert.deepEqual(reads, [abs], 'the target is read once, by the facts the guards use');
    assert.deepEqual(answer.decision === 'allow' ? { ...answer.target, before_stat: undefined } : undefined, { abs, rel: 'src/auth/login.ts', before: LOGIN, before_hash: contentHash(LOGIN), before_stat: undefined });
    assert.deepEqual([h.trace.governance.length, h.trace.mutations.length], [0, 0], 'nothing is recorded before the agent ran it');
    // The Agent Sessions view lists the call as it was judged: a replace_all edit is a write of what it would leave.
    const listed = h.governor.services.sessions.activity.list().find((session) => session.id === 's1')?.lastCall;
    assert.deepEqual([listed?.tool, listed?.target, listed?.decision], ['write_file', 'src/auth/login.ts', 'allowed']);
  });

  it('record: reads what the agent’s tool left, and the door says what was there before', async () => {
    const abs = join(h.root, 'src/auth/login.ts');
    const after = LOGIN.replace('false', 'true');
    await writeFile(abs, after);
    const left: LeftBehind[] = [];
    await h.governor.run({ tool: 'edit_file', input: { path: abs }, session_id: 's1', agent, invocation_id: 'k#0' }, { mode: 'record', before: (l) => (left.push(l), { before: LOGIN }) });
    assert.deepEqual(left, [{ abs, rel: 'src/auth/login.ts', hash: contentHash(after), text: after }]);
    assert.deepEqual(h.trace.mutations.map((m) => [m.tool, m.invocation_id, m.files]), [['edit_file', 'k#0', [{ path: 'src/auth/login.ts', before: LOGIN, after }]]]);
    await h.governor.run({ tool: 'read_file', input: { path: abs }, session_id: 's1', agent }, { mode: 'record', before: () => assert.fail('a read has no before') });
    assert.equal(h.governor.services.sessions.lastRead('s1', 'src/auth/login.ts')?.hash, contentHash(after));
  });
});

describe("the native door's refusals go through the same flow", () => {
  let h: Harness;
  let home: string;
  afterEach(async () => {
    await h?.dispose();
    if (home) await rm(home, { recursive: true, force: true });
  });

  const pre = (root: string, extra: Partial<BridgeRequest>): BridgeRequest => ({
    phase: 'pre',
    session_id: 'claude:abc',
    agent,
    key: 'claude:abc:toolu_1',
    calls: [],
    native: { dialect: 'claude', event: 'PreToolUse', session_id: 'abc', cwd: root, fields: {} },
    ...extra,
  });

  it('a tool the dialect cannot map is refused and recorded by the post-chain, as it was by the side door', async () => {
    h = await createHarness();
    h.governor.services.sessions.bindIntent('claude:abc', 'auth-refactor');
    const seen = postSpy(h);
    const bridge = new NativeToolBridge(h.governor, new MemoryBeforeStash(), { askHuman: false });
    const reason = "Intent Governor does not know Claude Code's tool 'NotebookEdit', so it is refused (fail closed).";
    const answer = await bridge.handle(pre(h.root, { unmapped: { tool: 'NotebookEdit', reason } }));
    assert.deepEqual(answer, { decision: 'deny', reason: `[INVALID_INPUT] ${reason}` });
    assert.deepEqual(seen.map((s) => [s.tool, s.outcome.status]), [['NotebookEdit', 'blocked']]);
    const { timestamp: _t, ...record } = onDisk(h.trace.governance[0]);
    assert.deepEqual(record, { invocation_id: 'claude:abc:toolu_1#0', session_id: 'claude:abc', agent, tool: 'NotebookEdit', intent_id: 'auth-refactor', decision: 'deny', code: 'INVALID_INPUT', message: reason, paths: [] });
  });

  it("a user hook's block is recorded by the post-chain under the agent's tool name", async function () {
    this.timeout(20_000);
    h = await createHarness({ files: { 'src/auth/login.ts': LOGIN } });
    home = await realpath(await mkdtemp(join(tmpdir(), 'ig-flow-home-')));
    // The person's own hooks file: trusted without an approval.
    const services = h.governor.services;
    services.governorHome = home;
    services.hookApprovals = new FileHookApprovals(join(home, 'approvals'));
    await writeFile(join(home, 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'echo "no writes on Fridays" >&2; exit 2' }] }] } }));
    const governor = new Governor(services);
    const seen: string[] = [];
    governor.engine.registerPost({ name: 'spy', run: ({ call, outcome }) => void seen.push(`${call.tool} ${outcome.status}`) });
    const file = join(h.root, 'src/auth/a.ts');
    const request = pre(h.root, { calls: [{ tool: 'write_file', input: { path: file, content: 'x\n' } }] });
    request.native = { ...request.native!, tool_name: 'Write', tool_input: { file_path: file, content: 'x\n' } };
    const answer = await new NativeToolBridge(governor, new MemoryBeforeStash(), { askHuman: false }).handle(request);
    assert.equal(answer.decision, 'deny');
    assert.match(answer.reason ?? '', /^\[HOOK_BLOCKED\] Blocked by the hook .*no writes on Fridays/);
    assert.deepEqual(seen, ['Write blocked']);
    const refusals = h.trace.governance.filter((g) => g.code === 'HOOK_BLOCKED' && g.decision === 'deny');
    assert.equal(refusals.length, 1);
    const { timestamp: _t, message, ...record } = onDisk(refusals[0]);
    assert.match(String(message), /no writes on Fridays/);
    assert.deepEqual(record, { invocation_id: 'claude:abc:toolu_1#0', session_id: 'claude:abc', agent, tool: 'Write', decision: 'deny', code: 'HOOK_BLOCKED', paths: [] });
  });
});
