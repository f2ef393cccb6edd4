import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FileHookApprovals } from '../../../../src/core/userHooks/hookApprovals';
import { loadHookLayers } from '../../../../src/core/userHooks/hookLayers';
import { runHook } from '../../../support/runHook';
import { SAMPLE_INTENTS } from '../../../support/governorHarness';
import { removeTree } from '../../../support/removeTree';

/**
 * The user hooks at an agent's native door, end to end: the real hook bundle (`node dist/hook.js hook <agent>`,
 * headless), a Claude Code or VS Code payload on stdin, hooks from `.orchestration/hooks.json` or
 * `.claude/settings.json` run as real processes, and the answer the agent reads on stdout.
 */
interface Door {
  root: string;
  env: NodeJS.ProcessEnv;
  /** Writes the project's hooks.json (Claude Code's shape) and approves every hook in it, as `governor hooks trust --yes` does. */
  projectHooks(hooks: Record<string, unknown>, file?: string): Promise<void>;
  hook(agent: string, payload: Record<string, unknown>): Promise<{ code: number | null; out: Record<string, unknown>; stdout: string; stderr: string }>;
  /** The governance log (refusals, asks, hook failures). */
  trace(): Promise<string>;
}

const dirs: string[] = [];

async function door(): Promise<Door> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'ig-userhooks-door-')));
  const home = await mkdtemp(join(tmpdir(), 'ig-home-'));
  dirs.push(root, home);
  await mkdir(join(root, '.orchestration'), { recursive: true });
  await mkdir(join(root, 'src', 'auth'), { recursive: true });
  await writeFile(join(root, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
  // In-scope writes land without a person (a headless hook has none to ask), so the hooks' own answers show.
  await mkdir(join(root, '.vscode'));
  await writeFile(join(root, '.vscode', 'settings.json'), JSON.stringify({ 'intentGovernor.approval': 'destructive-only' }));
  const anchorDir = join(home, 'config', 'anchors');
  const env = { INTENT_GOVERNOR_HOME: join(home, 'governor'), INTENT_GOVERNOR_ANCHOR_DIR: anchorDir, HOME: home };
  return {
    root,
    env,
    async projectHooks(hooks, file = '.orchestration/hooks.json') {
      await mkdir(dirname(join(root, file)), { recursive: true });
      await writeFile(join(root, file), JSON.stringify({ hooks }, null, 2));
      const loaded = loadHookLayers(root, { home: env.INTENT_GOVERNOR_HOME, door: 'vscode' });
      assert.deepEqual(loaded.problems, []);
      const approvals = new FileHookApprovals(join(dirname(anchorDir), 'hook-approvals'));
      for (const spec of loaded.hooks) await approvals.approve(root, spec.approvalHash, spec.name);
    },
    async hook(agent, payload) {
      const result = await runHook(agent, JSON.stringify({ session_id: 'sess-1', cwd: root, transcript_path: '/tmp/t.jsonl', permission_mode: 'default', ...payload }), ['--headless', '--intent', 'auth-refactor'], env);
      const stdout = result.stdout.trim();
      return { code: result.code, out: stdout ? (JSON.parse(stdout) as Record<string, unknown>) : {}, stdout, stderr: result.stderr };
    },
    trace: () => readFile(join(root, '.orchestration', 'governance_log.jsonl'), 'utf8').catch(() => ''),
  };
}

function specific(out: Record<string, unknown>): Record<string, unknown> {
  return (out.hookSpecificOutput ?? {}) as Record<string, unknown>;
}

const write = (root: string, path: string, content = 'export {};\n') => ({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`, tool_input: { file_path: join(root, path), content } });

describe("user hooks at agents' native doors (real hook processes)", function () {
  this.timeout(60_000);
  after(async () => {
    for (const dir of dirs) await removeTree(dir);
  });

  it("a matcher 'Edit|Write' fires for Claude's Write, and a Claude-format deny denies", async () => {
    const d = await door();
    const deny = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no writes on Fridays"}}'`;
    await d.projectHooks({ PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: deny }] }] });
    const answer = await d.hook('claude', write(d.root, 'src/auth/a.ts'));
    assert.equal(specific(answer.out).permissionDecision, 'deny');
    assert.match(String(specific(answer.out).permissionDecisionReason), /no writes on Fridays/);
    assert.match(await d.trace(), /HOOK_BLOCKED/, 'the refusal is in the governance log');
  });

  it('`{"continue": false}` from a hook stops the call, never reads as allow', async () => {
    const d = await door();
    await d.projectHooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: `echo '{"continue":false,"stopReason":"freeze"}'` }] }] });
    const answer = await d.hook('claude', write(d.root, 'src/auth/a.ts'));
    assert.equal(specific(answer.out).permissionDecision, 'deny');
    assert.equal(answer.out.continue, false);
  });

  it("a hook's rewrite reaches Claude as updatedInput, judged by scope: out-of-scope → in-scope is allowed with the new input", async () => {
    const d = await door();
    const rewrite = `node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{const i=JSON.parse(s);const t=i.tool_input;t.file_path=t.file_path.replace("/src/billing/","/src/auth/");console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",updatedInput:t}}))})'`;
    await d.projectHooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: rewrite }] }] });
    const answer = await d.hook('claude', write(d.root, 'src/billing/invoice.ts'));
    assert.equal(specific(answer.out).permissionDecision, 'allow');
    assert.deepEqual(specific(answer.out).updatedInput, { file_path: join(d.root, 'src/auth/invoice.ts'), content: 'export {};\n' });
  });

  it('a rewrite from in-scope to out-of-scope is refused: the guards judge the input the agent would run', async () => {
    const d = await door();
    const rewrite = `node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{const i=JSON.parse(s);const t=i.tool_input;t.file_path=t.file_path.replace("/src/auth/","/src/billing/");console.log(JSON.stringify({modify:t}))})'`;
    await d.projectHooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: rewrite }] }] });
    const answer = await d.hook('claude', write(d.root, 'src/auth/ok.ts'));
    assert.equal(specific(answer.out).permissionDecision, 'deny');
    assert.match(String(specific(answer.out).permissionDecisionReason), /SCOPE_VIOLATION/);
    assert.equal(specific(answer.out).updatedInput, undefined);
  });

  it("a hook's additionalContext and systemMessage reach the agent on an allowed call", async () => {
    const d = await door();
    await d.projectHooks({ PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `echo '{"systemMessage":"linted","hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"remember the style guide"}}'` }] }] });
    const answer = await d.hook('claude', write(d.root, 'src/auth/a.ts'));
    assert.match(String(specific(answer.out).additionalContext), /remember the style guide/);
    assert.equal(answer.out.systemMessage, 'linted');
    assert.equal(specific(answer.out).permissionDecision, undefined, 'allow leaves the agent its own permission rules');
  });

  it("PostToolUse hooks run for native Bash with the real tool_response, and see $TOOL_NAME", async () => {
    const d = await door();
    const seen = join(d.root, 'seen.json');
    await d.projectHooks({ PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `cat > ${JSON.stringify(seen)}; echo "$TOOL_NAME" > ${JSON.stringify(seen + '.env')}` }] }] });
    const response = { stdout: 'hello\n', stderr: '', interrupted: false };
    await d.hook('claude', { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_use_id: 'toolu_b1', tool_input: { command: 'echo hello' }, tool_response: response });
    const input = JSON.parse(await readFile(seen, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(input.tool_response, response);
    assert.equal(input.tool_name, 'Bash');
    assert.equal(input.governed_tool, 'run_command');
    assert.equal(input.intent_id, 'auth-refactor');
    assert.equal((await readFile(seen + '.env', 'utf8')).trim(), 'Bash');
  });

  it("TraceRecorded fires once a native change is on record", async () => {
    const d = await door();
    const seen = join(d.root, 'recorded.json');
    await d.projectHooks({ TraceRecorded: [{ hooks: [{ type: 'command', command: `cat > ${JSON.stringify(seen)}` }] }] });
    const pre = write(d.root, 'src/auth/t.ts');
    await d.hook('claude', pre);
    await writeFile(join(d.root, 'src/auth/t.ts'), 'export {};\n');
    await d.hook('claude', { ...pre, hook_event_name: 'PostToolUse', tool_response: { type: 'create' } });
    const input = JSON.parse(await readFile(seen, 'utf8')) as Record<string, unknown>;
    assert.equal(input.hook_event_name, 'TraceRecorded');
    assert.deepEqual(input.files, ['src/auth/t.ts']);
    assert.equal(input.tool_name, 'Write');
  });

  it('UserPromptSubmit hooks run and can block the prompt (exit 2 with a reason)', async () => {
    const d = await door();
    await d.projectHooks({ UserPromptSubmit: [{ hooks: [{ type: 'command', command: `grep -q password && { echo "no secrets in prompts" >&2; exit 2; } || exit 0` }] }] });
    const blocked = await d.hook('claude', { hook_event_name: 'UserPromptSubmit', prompt: 'here is my password' });
    assert.equal(blocked.out.decision, 'block');
    assert.match(String(blocked.out.reason), /no secrets in prompts/);
    const fine = await d.hook('claude', { hook_event_name: 'UserPromptSubmit', prompt: 'refactor auth' });
    assert.notEqual(fine.out.decision, 'block');
    assert.match(String(specific(fine.out).additionalContext), /auth-refactor|Refactor authentication/, 'the intent handshake still arrives');
  });

  it("hooks in .claude/settings.json guard VS Code's agent, and are not run a second time for Claude Code", async () => {
    const d = await door();
    const deny = `echo '{"decision":"block","reason":"team policy"}'`;
    await d.projectHooks({ PreToolUse: [{ matcher: 'Write|create_file', hooks: [{ type: 'command', command: deny }] }] }, '.claude/settings.json');
    const vscode = await d.hook('vscode', { hook_event_name: 'PreToolUse', tool_name: 'create_file', tool_use_id: 'c1', tool_input: { filePath: join(d.root, 'src/auth/a.ts'), content: 'x' } });
    assert.equal(specific(vscode.out).permissionDecision, 'deny');
    assert.match(String(specific(vscode.out).permissionDecisionReason), /team policy/);
    const claude = await d.hook('claude', write(d.root, 'src/auth/a.ts'));
    assert.notEqual(specific(claude.out).permissionDecision, 'deny', 'Claude Code runs its own settings hooks itself');
  });

  it('a Stop hook can keep the agent working (decision block)', async () => {
    const d = await door();
    await d.projectHooks({ Stop: [{ hooks: [{ type: 'command', command: `echo '{"decision":"block","reason":"run the tests first"}'` }] }] });
    const answer = await d.hook('claude', { hook_event_name: 'Stop', stop_hook_active: false });
    assert.equal(answer.out.decision, 'block');
    assert.equal(answer.out.reason, 'run the tests first');
  });

  it('a read-only tool (Grep) reaches the user hooks when there are any', async () => {
    const d = await door();
    await d.projectHooks({ PreToolUse: [{ matcher: 'Grep', hooks: [{ type: 'command', command: `echo "no grepping" >&2; exit 2` }] }] });
    const answer = await d.hook('claude', { hook_event_name: 'PreToolUse', tool_name: 'Grep', tool_use_id: 'g1', tool_input: { pattern: 'x' } });
    assert.equal(specific(answer.out).permissionDecision, 'deny');
    assert.match(String(specific(answer.out).permissionDecisionReason), /no grepping/);
  });

  it('an unapproved project hook does not run, and the call asks a human', async () => {
    const d = await door();
    const marker = join(d.root, 'ran');
    await writeFile(join(d.root, '.orchestration', 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: `touch ${JSON.stringify(marker)}` }] }] } }));
    const answer = await d.hook('claude', write(d.root, 'src/auth/a.ts'));
    assert.equal(specific(answer.out).permissionDecision, 'ask');
    assert.match(String(specific(answer.out).permissionDecisionReason), /governor hooks trust/);
    assert.equal(existsSync(marker), false);
  });

  it("the person's own ~/.intent-governor/hooks.json runs without approval", async () => {
    const d = await door();
    await mkdir(d.env.INTENT_GOVERNOR_HOME as string, { recursive: true });
    await writeFile(join(d.env.INTENT_GOVERNOR_HOME as string, 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', args: ['sh', '-c', 'echo personal rule >&2; exit 2'] }] }] } }));
    const answer = await d.hook('claude', write(d.root, 'src/auth/a.ts'));
    assert.equal(specific(answer.out).permissionDecision, 'deny');
    assert.match(String(specific(answer.out).permissionDecisionReason), /personal rule/);
  });

  it('a hooks.json that cannot be read blocks every call, naming the file', async () => {
    const d = await door();
    await writeFile(join(d.root, '.orchestration', 'hooks.json'), '{ not json');
    const answer = await d.hook('claude', write(d.root, 'src/auth/a.ts'));
    assert.equal(specific(answer.out).permissionDecision, 'deny');
    assert.match(String(specific(answer.out).permissionDecisionReason), /hooks\.json/);
  });

  it('a one-shot hook process answers at once and leaves background hooks to a detached worker; asyncRewake reaches the next call', async () => {
    const d = await door();
    const marker = join(d.root, 'async-done');
    await d.projectHooks({
      PostToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', async: true, command: `sleep 1; touch ${JSON.stringify(marker)}` }] },
        { matcher: 'Bash', hooks: [{ type: 'command', asyncRewake: true, command: 'echo "tests failed after your command" >&2; exit 2' }] },
      ],
    });
    await d.hook('claude', { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_use_id: 'b1', tool_input: { command: 'true' }, tool_response: { stdout: '' } });
    assert.equal(existsSync(marker), false, 'the hook process did not wait for the async hook');
    for (let i = 0; i < 100 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(existsSync(marker), 'the detached worker ran it');
    let context = '';
    for (let i = 0; i < 40 && !context.includes('tests failed'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      const next = await d.hook('claude', write(d.root, 'src/auth/a.ts'));
      context = String(specific(next.out).additionalContext ?? '');
    }
    assert.match(context, /tests failed after your command/);
  });
});
