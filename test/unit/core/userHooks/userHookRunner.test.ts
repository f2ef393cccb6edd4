import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GovernedResult } from '../../../../src/core/flow/callRequest';
import { Governor } from '../../../../src/core/governor';
import { FileHookApprovals } from '../../../../src/core/userHooks/hookApprovals';
import { FileHookRunLog } from '../../../../src/core/userHooks/fileHookRunLog';
import { createNodeServices } from '../../../../src/core/nodeServices';
import { RecordingLogger, RecordingTrace, SAMPLE_INTENTS, ScriptedApprover } from '../../../support/governorHarness';

/**
 * Every event the governed door (MCP, VS Code's tools, the CLI) fires at the user hooks, through `Governor.run` (execute):
 * hooks from the person's own ~/.intent-governor/hooks.json (trusted without approval) run as real processes.
 */
interface World {
  root: string;
  home: string;
  governor: Governor;
  approver: ScriptedApprover;
  trace: RecordingTrace;
  hooks(config: Record<string, unknown>): Promise<void>;
  call(tool: string, input: Record<string, unknown>, session?: string): Promise<GovernedResult>;
}

const dirs: string[] = [];

async function world(): Promise<World> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'ig-hookrunner-')));
  const home = await mkdtemp(join(tmpdir(), 'ig-hookrunner-home-'));
  dirs.push(root, home);
  await mkdir(join(root, '.orchestration'), { recursive: true });
  await mkdir(join(root, 'src', 'auth'), { recursive: true });
  await writeFile(join(root, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
  const approver = new ScriptedApprover();
  const trace = new RecordingTrace();
  const services = { ...(await createNodeServices({ root, approver, trace, logger: new RecordingLogger() })), governorHome: home, hookApprovals: new FileHookApprovals(join(home, 'approvals')) };
  services.sessions.bindIntent('s1', 'auth-refactor');
  const governor = new Governor(services);
  return {
    root,
    home,
    governor,
    approver,
    trace,
    hooks: (config) => writeFile(join(home, 'hooks.json'), JSON.stringify({ hooks: config })),
    call: (tool, input, session = 's1') => governor.run({ tool, input, session_id: session, agent: { name: 'test-agent' } }, { mode: 'execute' }),
  };
}

const echoInput = (file: string) => ({ type: 'command', command: `cat >> ${JSON.stringify(file)}; echo >> ${JSON.stringify(file)}` });

async function lines(file: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('user hooks at the governed door: every event', function () {
  this.timeout(30_000);
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("a hook written for Claude Code ('Write') fires for the governed write_file, with Claude's input fields and ours", async () => {
    const w = await world();
    const seen = join(w.home, 'seen.jsonl');
    await w.hooks({ PreToolUse: [{ matcher: 'Write', hooks: [echoInput(seen)] }] });
    const result = await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
    assert.ok(result.ok);
    const [input] = await lines(seen);
    assert.equal(input.hook_event_name, 'PreToolUse');
    assert.equal(input.tool_name, 'write_file');
    assert.deepEqual(input.tool_input, { path: 'src/auth/a.ts', content: 'x\n' });
    assert.equal(input.session_id, 's1');
    assert.equal(input.cwd, w.root);
    assert.equal(input.intent_id, 'auth-refactor');
    assert.deepEqual(input.intent_scope, ['src/auth/**', 'test/auth/**']);
    assert.equal(input.governed_tool, 'write_file');
    assert.equal(typeof input.invocation_id, 'string');
  });

  it('$TOOL_NAME, $FILE_PATH, $SESSION_ID, $INTENT_ID and $INTENT_GOVERNOR_PROJECT_DIR are set', async () => {
    const w = await world();
    const out = join(w.home, 'env.txt');
    await w.hooks({ PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `echo "$TOOL_NAME|$FILE_PATH|$SESSION_ID|$INTENT_ID|$INTENT_GOVERNOR_PROJECT_DIR" > ${JSON.stringify(out)}` }] }] });
    await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
    assert.equal((await readFile(out, 'utf8')).trim(), `write_file|src/auth/a.ts|s1|auth-refactor|${w.root}`);
  });

  it("an `if` condition narrows the hook: Write(src/auth/secret*) fires for that file only", async () => {
    const w = await world();
    await w.hooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', if: 'Write(src/auth/secret*)', command: 'echo "not the secrets" >&2; exit 2' }] }] });
    assert.ok((await w.call('write_file', { path: 'src/auth/a.ts', content: 'x' })).ok);
    const refused = await w.call('write_file', { path: 'src/auth/secrets.ts', content: 'x' });
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, 'HOOK_BLOCKED');
    assert.match(refused.error.message, /not the secrets/);
  });

  it("PostToolUse gets the tool's response, and its additionalContext reaches the model", async () => {
    const w = await world();
    const seen = join(w.home, 'post.jsonl');
    await w.hooks({ PostToolUse: [{ matcher: 'write_file', hooks: [{ type: 'command', command: `cat > ${JSON.stringify(seen)}; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"now run the tests"}}'` }] }] });
    const result = await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
    assert.ok(result.ok);
    assert.ok(result.context.includes('now run the tests'), JSON.stringify(result.context));
    const input = JSON.parse(await readFile(seen, 'utf8')) as { tool_response: Record<string, unknown> };
    assert.equal(input.tool_response.status, 'success');
    assert.match(String(input.tool_response.content_hash), /^sha256:/);
  });

  it('PostToolUseFailure fires when the tool fails, TraceRecorded after a change is on record, IntentSelected on a pick', async () => {
    const w = await world();
    const seen = join(w.home, 'events.jsonl');
    await w.hooks({ PostToolUseFailure: [{ hooks: [echoInput(seen)] }], TraceRecorded: [{ hooks: [echoInput(seen)] }], IntentSelected: [{ hooks: [echoInput(seen)] }] });
    const failed = await w.call('read_file', { path: 'src/auth/missing.ts' });
    assert.ok(!failed.ok);
    await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
    await w.call('select_active_intent', { intent_id: 'auth-refactor' }, 's2');
    const events = await lines(seen);
    assert.deepEqual(events.map((e) => e.hook_event_name), ['PostToolUseFailure', 'TraceRecorded', 'IntentSelected']);
    assert.deepEqual(events[1].files, ['src/auth/a.ts']);
    assert.equal(w.trace.mutations.length, 1, 'the record exists before TraceRecorded fires');
    assert.equal(events[2].intent_id, 'auth-refactor');
  });

  it('a PermissionRequest hook decides for the human: allow approves without a dialog, deny refuses', async () => {
    const w = await world();
    await writeFile(join(w.root, 'src/auth/old.ts'), 'x');
    await writeFile(join(w.root, 'src/auth/keep.ts'), 'x');
    await w.hooks({ PermissionRequest: [{ matcher: 'delete_file', hooks: [{ type: 'command', command: `grep -q keep && echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"keep stays"}}}' || echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'` }] }] });
    await w.call('read_file', { path: 'src/auth/old.ts' });
    await w.call('read_file', { path: 'src/auth/keep.ts' });
    const deleted = await w.call('delete_file', { path: 'src/auth/old.ts' });
    assert.ok(deleted.ok, JSON.stringify(deleted));
    assert.equal(existsSync(join(w.root, 'src/auth/old.ts')), false);
    const kept = await w.call('delete_file', { path: 'src/auth/keep.ts' });
    assert.ok(!kept.ok);
    assert.match(kept.error.message, /keep stays/);
    assert.equal(w.approver.requests.length, 0, 'no dialog was shown');
  });

  it('PermissionDenied fires after a human rejected', async () => {
    const w = await world();
    const seen = join(w.home, 'denied.jsonl');
    await writeFile(join(w.root, 'src/auth/old.ts'), 'x');
    await w.hooks({ PermissionDenied: [{ hooks: [echoInput(seen)] }] });
    w.approver.script(false);
    await w.call('read_file', { path: 'src/auth/old.ts' });
    const result = await w.call('delete_file', { path: 'src/auth/old.ts' });
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'HITL_REJECT');
    const [event] = await lines(seen);
    assert.equal(event.hook_event_name, 'PermissionDenied');
    assert.equal(event.tool_name, 'delete_file');
  });

  it('ScopeExpansionRequested hooks can refuse a request for more scope', async () => {
    const w = await world();
    await w.hooks({ ScopeExpansionRequested: [{ hooks: [{ type: 'command', command: 'echo "no billing, ever" >&2; exit 2' }] }] });
    const result = await w.call('request_scope_expansion', { globs: ['src/billing/**'], reason: 'need it' });
    assert.ok(!result.ok);
    assert.match(result.error.message, /no billing, ever/);
  });

  it('`once` runs a hook once per session', async () => {
    const w = await world();
    const seen = join(w.home, 'once.jsonl');
    await w.hooks({ PreToolUse: [{ matcher: '*', hooks: [{ ...echoInput(seen), once: true }] }] });
    await w.call('read_file', { path: '.orchestration/active_intents.yaml' });
    await w.call('read_file', { path: '.orchestration/active_intents.yaml' });
    await w.call('read_file', { path: '.orchestration/active_intents.yaml' }, 's2');
    assert.deepEqual((await lines(seen)).map((e) => e.session_id), ['s1', 's2']);
  });

  it("`async` runs in the background; an `asyncRewake` exit 2 reaches the session's next call as context", async () => {
    const w = await world();
    const marker = join(w.home, 'async.txt');
    await w.hooks({
      PostToolUse: [
        { matcher: 'write_file', hooks: [{ type: 'command', async: true, command: `sleep 0.2; touch ${JSON.stringify(marker)}` }] },
        { matcher: 'write_file', hooks: [{ type: 'command', asyncRewake: true, command: 'echo "lint found 3 problems in a.ts" >&2; exit 2' }] },
      ],
    });
    const first = await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
    assert.ok(first.ok);
    assert.equal(existsSync(marker), false, 'the call did not wait for the async hook');
    await w.governor.userHooks.drain();
    assert.ok(existsSync(marker));
    const next = await w.call('read_file', { path: 'src/auth/a.ts' });
    assert.ok(next.context.some((c) => c.includes('lint found 3 problems')), JSON.stringify(next.context));
    const after = await w.call('read_file', { path: 'src/auth/a.ts' });
    assert.ok(!after.context.some((c) => c.includes('lint found')), 'delivered once');
  });

  it('an http hook gets the input JSON and its deny denies; a server that is down blocks (onFailure block)', async () => {
    const w = await world();
    const bodies: string[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c)).on('end', () => {
        bodies.push(body);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'policy server says no' } }));
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      await w.hooks({ PreToolUse: [{ matcher: 'write_file', hooks: [{ type: 'http', url }] }] });
      const refused = await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
      assert.ok(!refused.ok);
      assert.match(refused.error.message, /policy server says no/);
      assert.equal((JSON.parse(bodies[0]) as { tool_name: string }).tool_name, 'write_file');
    } finally {
      await new Promise((done) => server.close(done));
    }
    const down = await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
    assert.ok(!down.ok);
    assert.equal(down.error.code, 'HOOK_ERROR');
  });

  it('a prompt hook outside VS Code says plainly there is no model here, and its onFailure decides: block refuses, continue skips; no HOOK_ERROR either way', async () => {
    const w = await world();
    await w.hooks({ PreToolUse: [{ matcher: 'write_file', hooks: [{ type: 'prompt', prompt: 'Is this safe? $ARGUMENTS' }] }] });
    const refused = await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, 'HOOK_BLOCKED');
    assert.match(refused.error.message, /prompt hook .*needs a language model, and there is none here \(only VS Code provides one;/);
    assert.match(refused.error.message, /"onFailure": "continue"/);
    await w.hooks({ PreToolUse: [{ matcher: 'write_file', hooks: [{ type: 'prompt', prompt: 'Is this safe?', onFailure: 'continue' }] }] });
    assert.ok((await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' })).ok);
    assert.deepEqual(w.trace.governance.filter((e) => e.code === 'HOOK_ERROR'), [], 'a hook that cannot run here is not an error of the hook');
    const runs = JSON.stringify(await new FileHookRunLog(join(w.home, 'hook-runs')).read(w.root));
    assert.match(runs, /skipped: no language model here/);
  });

  it("a hook's allow never overrides a built-in refusal", async () => {
    const w = await world();
    await w.hooks({ PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'` }] }] });
    const result = await w.call('write_file', { path: 'src/billing/x.ts', content: 'x' });
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'SCOPE_VIOLATION');
  });

  it('a failing observation hook is logged and the agent carries on (onFailure continue is the default there)', async () => {
    const w = await world();
    await w.hooks({ PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'exit 7' }] }] });
    const result = await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
    assert.ok(result.ok);
    assert.ok(w.trace.governance.some((g) => g.decision === 'error' && g.code === 'HOOK_ERROR' && g.hook_event === 'PostToolUse'), 'the failure is in the governance log');
  });
});
