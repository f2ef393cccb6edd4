import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE_INTENTS } from '../support/governorHarness';
import type { TraceRecord } from '../support/agentTraceSchema';
import { builtGovernor, governorHomes, orchestrationJsonl, pathWithSilentPreToolNode, removeAgentTemp, seedAgentWorkspace } from './agentWorkspace';
import { startScriptedOpenAI, type ScriptStep, type ScriptedOpenAI } from '../support/scriptedOpenAI';
import { ensureBuilt } from './claudeCodeDriver';
import { pathWithCodex, provisionedCodex, runCodex, writeCodexConfig, codexPatch, type CodexRun } from './codexDriver';

interface Played {
  run: CodexRun;
  model: ScriptedOpenAI;
}

/**
 * The real Codex CLI, offline, with a scripted Responses API model, governed through the hooks
 * `governor hooks install --agent codex` writes and has Codex trust: what a user of Codex gets.
 */
describe('agents: the real Codex CLI governed through its hooks (the hook bridge)', function () {
  let codex: string;
  let temp: string;
  let ws: string;
  let home: string;

  before(function () {
    this.timeout(600_000);
    codex = provisionedCodex();
    ensureBuilt();
  });

  beforeEach(() => {
    ({ temp, ws, home } = seedAgentWorkspace('codex', { folders: ['src/other'] }));
    // The person trusts the project once (Codex reads .codex/ only then); the install trusts our hooks.
    writeCodexConfig(home, [ws]);
    const install = builtGovernor(['hooks', 'install', '--agent', 'codex', '--workspace', ws], { HOME: home, CODEX_HOME: join(home, '.codex'), PATH: pathWithCodex(codex), ...governorHomes(temp) });
    assert.equal(install.status, 0, install.stdout + install.stderr);
    assert.match(install.stdout, /codex: .*\.codex\/config\.toml written \(trusted Intent Governor's 10 hooks/);
  });

  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

  const play = async (script: ScriptStep[], options: { cwd?: string; args?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<Played> => {
    const model = await startScriptedOpenAI(script);
    try {
      const run = await runCodex({
        binary: codex,
        cwd: options.cwd ?? ws,
        modelUrl: model.url,
        home,
        args: options.args,
        env: {
          INTENT_GOVERNOR_INTENT: 'auth-refactor',
          ...governorHomes(temp),
          ...options.env,
        },
      });
      assert.equal(run.signal, null, `codex was killed: ${run.stderr}`);
      assert.equal(model.remaining(), 0, `codex stopped before playing the script: ${run.stdout}\n${run.stderr}`);
      return { run, model };
    } finally {
      await model.close();
    }
  };

  const jsonl = (name: string): Record<string, unknown>[] => orchestrationJsonl(ws, name);

  it('an in-scope apply_patch that adds a file lands and is traced as codex-cli under the intent', async () => {
    const { model } = await play([{ tool: 'apply_patch', input: codexPatch('*** Add File: src/auth/token.ts', '+export const token = 1;') }, { text: 'written' }]);
    assert.match(model.toolResults()[0]?.text ?? '', /Success\. Updated the following files:\nA src\/auth\/token\.ts/, JSON.stringify(model.toolResults()));
    assert.equal(readFileSync(join(ws, 'src/auth/token.ts'), 'utf8'), 'export const token = 1;\n');
    const record = jsonl('agent_trace.jsonl').at(-1) as TraceRecord | undefined;
    assert.ok(record, 'no trace record');
    assert.equal(record.files[0].path, 'src/auth/token.ts');
    assert.equal(record.metadata.agent, 'codex-cli');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
    assert.match(JSON.stringify(model.requests[0]?.body.input), /Refactor authentication/, 'the model got the intent handshake (SessionStart) in its first request');
  });

  it('an in-scope apply_patch that edits a file lands and is traced as a change to that file', async () => {
    const { model } = await play([
      { tool: 'exec_command', input: { cmd: 'cat src/auth/login.ts' } },
      { tool: 'apply_patch', input: codexPatch('*** Update File: src/auth/login.ts', '@@', ' export function login() {', '-  return false;', '+  return true;', ' }') },
      { text: 'edited' },
    ]);
    assert.match(model.toolResults()[1]?.text ?? '', /Success\. Updated the following files:\nM src\/auth\/login\.ts/, JSON.stringify(model.toolResults()));
    assert.equal(readFileSync(join(ws, 'src/auth/login.ts'), 'utf8'), 'export function login() {\n  return true;\n}\n');
    const record = jsonl('agent_trace.jsonl').at(-1) as TraceRecord | undefined;
    assert.ok(record, 'no trace record');
    assert.equal(record.files[0].path, 'src/auth/login.ts');
    assert.equal(record.metadata.agent, 'codex-cli');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
  });

  it('an out-of-scope apply_patch is refused and does not land (Codex 0.169 enforces a deny for apply_patch): the model reads SCOPE_VIOLATION, the governance log has it', async () => {
    // openai/codex#27833 reported apply_patch running despite a PreToolUse deny; this pins that it does not here.
    const { model } = await play([
      { tool: 'apply_patch', input: codexPatch('*** Update File: src/billing/invoice.ts', '@@', '-export const invoice = 1;', '+export const invoice = 2;') },
      { tool: 'apply_patch', input: codexPatch('*** Add File: src/billing/x.ts', '+x') },
      { text: 'refused' },
    ]);
    assert.equal(readFileSync(join(ws, 'src/billing/invoice.ts'), 'utf8'), 'export const invoice = 1;\n', 'the denied edit did not land');
    assert.equal(existsSync(join(ws, 'src/billing/x.ts')), false, 'the denied file was not created');
    const [edit, add] = model.toolResults();
    assert.match(edit?.text ?? '', /blocked by PreToolUse hook: \[SCOPE_VIOLATION\] "src\/billing\/invoice\.ts" is outside the owned scope of intent auth-refactor/, JSON.stringify(model.toolResults()));
    assert.match(add?.text ?? '', /\[SCOPE_VIOLATION\] "src\/billing\/x\.ts"/);
    const refusals = jsonl('governance_log.jsonl').filter((entry) => entry.code === 'SCOPE_VIOLATION');
    assert.deepEqual(refusals.map((entry) => entry.paths), [['src/billing/invoice.ts'], ['src/billing/x.ts']]);
    assert.deepEqual(refusals[0].agent, { name: 'codex-cli' });
    assert.deepEqual(jsonl('agent_trace.jsonl'), []);
  });

  it('a patch path is judged where Codex resolves it (its working directory), not at the workspace root', async () => {
    const { model } = await play([{ tool: 'apply_patch', input: codexPatch('*** Add File: src/auth/x.ts', '+x') }, { text: 'refused' }], { cwd: join(ws, 'src', 'other') });
    assert.equal(existsSync(join(ws, 'src/auth/x.ts')), false);
    assert.equal(existsSync(join(ws, 'src/other/src/auth/x.ts')), false);
    assert.match(model.toolResults()[0]?.text ?? '', /\[SCOPE_VIOLATION\] "src\/other\/src\/auth\/x\.ts"/, JSON.stringify(model.toolResults()));
  });

  it('a shell redirect out of scope is refused before the shell runs it, in the directory the command runs in', async () => {
    const { model } = await play([
      { tool: 'exec_command', input: { cmd: 'echo x > src/billing/y.ts' } },
      { tool: 'exec_command', input: { cmd: 'echo x > y.ts', workdir: 'src/billing' } },
      { text: 'refused' },
    ]);
    assert.equal(existsSync(join(ws, 'src/billing/y.ts')), false);
    const [root, workdir] = model.toolResults();
    assert.match(root?.text ?? '', /Command blocked by PreToolUse hook: \[SCOPE_VIOLATION\] "src\/billing\/y\.ts"/, JSON.stringify(model.toolResults()));
    assert.match(workdir?.text ?? '', /\[SCOPE_VIOLATION\] "src\/billing\/y\.ts"/, JSON.stringify(model.toolResults()));
  });

  it("a protected path is refused, even through a patch Codex would apply: the intents file and Codex's own hooks", async () => {
    const intents = readFileSync(join(ws, '.orchestration/active_intents.yaml'), 'utf8');
    const hooks = readFileSync(join(ws, '.codex/hooks.json'), 'utf8');
    const { model } = await play([
      { tool: 'apply_patch', input: codexPatch('*** Add File: .orchestration/active_intents.yaml', '+active_intents: []') },
      { tool: 'exec_command', input: { cmd: 'echo {} > .codex/hooks.json' } },
      { text: 'refused' },
    ]);
    assert.equal(readFileSync(join(ws, '.orchestration/active_intents.yaml'), 'utf8'), intents);
    assert.equal(readFileSync(join(ws, '.codex/hooks.json'), 'utf8'), hooks);
    const [patched, shell] = model.toolResults();
    assert.match(patched?.text ?? '', /\[PROTECTED_PATH\]/, JSON.stringify(model.toolResults()));
    assert.match(shell?.text ?? '', /\[PROTECTED_PATH\]/, JSON.stringify(model.toolResults()));
  });

  it('a tool the bridge does not know (request_permissions, behind a feature flag) is refused, and the refusal is audited', async () => {
    const { model } = await play([{ tool: 'request_permissions', input: { justification: 'write anywhere', permissions: {} } }, { text: 'refused' }], { args: ['--enable', 'request_permissions_tool'] });
    assert.match(model.toolResults()[0]?.text ?? '', /blocked by PreToolUse hook: .*does not know Codex's tool 'request_permissions', so it is refused/, JSON.stringify(model.toolResults()));
    const refusal = jsonl('governance_log.jsonl').find((entry) => entry.tool_name === 'request_permissions');
    assert.equal(refusal?.code, 'INVALID_INPUT', 'the refusal is audited');
  });

  it('a patch that deletes a file is refused with what to do instead, and the file stays', async () => {
    const { model } = await play([{ tool: 'apply_patch', input: codexPatch('*** Delete File: src/auth/login.ts') }, { text: 'refused' }]);
    assert.ok(existsSync(join(ws, 'src/auth/login.ts')));
    assert.match(model.toolResults()[0]?.text ?? '', /deletes src\/auth\/login\.ts.*delete the file with a shell command/, JSON.stringify(model.toolResults()));
  });

  it('a node first on PATH that exits 1 with no output on PreToolUse: the out-of-scope apply_patch and shell redirect are blocked with the reason, nothing lands', async () => {
    // Codex 0.169 runs the tool unless a hook exits 2 with a reason on stderr; the installed command always gives one.
    const { model } = await play(
      [
        { tool: 'apply_patch', input: codexPatch('*** Add File: src/billing/x.ts', '+x') },
        { tool: 'exec_command', input: { cmd: 'echo x > src/billing/y.ts' } },
        { text: 'blocked' },
      ],
      { env: { PATH: pathWithSilentPreToolNode(temp), INTENT_GOVERNOR_RESIDENT: 'off' } },
    );
    assert.equal(existsSync(join(ws, 'src/billing/x.ts')), false, 'the patch did not land');
    assert.equal(existsSync(join(ws, 'src/billing/y.ts')), false, 'the redirect did not run');
    const [patched, shell] = model.toolResults();
    for (const result of [patched, shell]) assert.match(result?.text ?? '', /blocked by PreToolUse hook: Intent Governor blocked this call: its hook process ended without an answer\..*governor-hook exited with code 1/s, JSON.stringify(model.toolResults()));
  });

  it('install in a project Codex does not trust fails and says how to fix it: Codex would not load the hooks there', () => {
    const untrusted = join(temp, 'untrusted');
    mkdirSync(join(untrusted, '.orchestration'), { recursive: true });
    writeFileSync(join(untrusted, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
    const install = builtGovernor(['hooks', 'install', '--agent', 'codex', '--workspace', untrusted], { HOME: home, CODEX_HOME: join(home, '.codex'), PATH: pathWithCodex(codex) });
    assert.equal(install.status, 1, install.stdout + install.stderr);
    assert.match(install.stdout, /codex: .*untrusted\/\.codex\/hooks\.json written/);
    assert.match(install.stderr, /Codex does not load .*untrusted\/\.codex\/hooks\.json: it reads a project's \.codex\/ folder only once you trust the project.*then run this install again/);
  });

  it('a destructive command that needs a person is refused with the reason, since Codex cannot ask from a hook (an in-scope redirect now runs confined: codexConfinedShell)', async () => {
    const { model } = await play([{ tool: 'exec_command', input: { cmd: 'rm -rf src/auth' } }, { text: 'refused' }]);
    assert.equal(existsSync(join(ws, 'src/auth/login.ts')), true, 'an ask never lets the command run');
    assert.match(model.toolResults()[0]?.text ?? '', /blocked by PreToolUse hook: Intent Governor asks a human: Destructive command: rm -rf src\/auth.* Codex cannot ask a person from a hook, so the call is refused/, JSON.stringify(model.toolResults()));
  });

  it("a project hook that rewrites a patch's path: Codex applies the rewrite (updatedInput), judged by scope, and it is traced", async () => {
    // Moves every patched path under src/billing/ to src/auth/, where the intent may write.
    const mover = `node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{const t=JSON.parse(s).tool_input;t.command=t.command.replaceAll("src/billing/","src/auth/");console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"allow",updatedInput:t}}))})'`;
    writeFileSync(join(ws, '.orchestration', 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'apply_patch', hooks: [{ type: 'command', command: mover }] }] } }, null, 2));
    const trust = builtGovernor(['hooks', 'trust', '--yes', '--workspace', ws], { HOME: home, ...governorHomes(temp) });
    assert.equal(trust.status, 0, trust.stdout + trust.stderr);
    const { model } = await play([{ tool: 'apply_patch', input: codexPatch('*** Add File: src/billing/moved.ts', '+export const moved = 1;') }, { text: 'written' }]);
    assert.match(model.toolResults()[0]?.text ?? '', /A src\/auth\/moved\.ts/, JSON.stringify(model.toolResults()));
    assert.equal(readFileSync(join(ws, 'src/auth/moved.ts'), 'utf8'), 'export const moved = 1;\n', 'Codex applied the rewritten patch');
    assert.equal(existsSync(join(ws, 'src/billing/moved.ts')), false, 'and never the original');
    const record = jsonl('agent_trace.jsonl').at(-1) as TraceRecord | undefined;
    assert.deepEqual(record?.files.map((f) => f.path), ['src/auth/moved.ts']);
    assert.equal(record?.metadata.agent, 'codex-cli');
  });
});
