import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GovernedResult } from '../../../../src/core/flow/callRequest';
import { Governor } from '../../../../src/core/governor';
import { FileHookApprovals } from '../../../../src/core/userHooks/hookApprovals';
import { CLAUDE_HOOK_EVENTS } from '../../../../src/core/userHooks/hookEvents';
import { parseHooksConfig } from '../../../../src/core/userHooks/hooksConfig';
import { createNodeServices } from '../../../../src/core/nodeServices';
import { RecordingLogger, RecordingTrace, SAMPLE_INTENTS, ScriptedApprover } from '../../../support/governorHarness';

/**
 * Issue 24: a hooks file copied from Claude Code's current documentation loads whole at the governed door: every
 * event, `async` on a decision event, an unknown event or a broken observation entry costs that entry only, and
 * the valid deny hooks beside them still decide.
 */
const dirs: string[] = [];

interface World {
  root: string;
  home: string;
  governor: Governor;
  logger: RecordingLogger;
  hooks(config: Record<string, unknown>): Promise<void>;
  call(tool: string, input: Record<string, unknown>, session?: string): Promise<GovernedResult>;
}

async function world(): Promise<World> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'ig-claudefile-')));
  const home = await mkdtemp(join(tmpdir(), 'ig-claudefile-home-'));
  dirs.push(root, home);
  await mkdir(join(root, '.orchestration'), { recursive: true });
  await mkdir(join(root, 'src', 'auth'), { recursive: true });
  await writeFile(join(root, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
  const logger = new RecordingLogger();
  const services = { ...(await createNodeServices({ root, approver: new ScriptedApprover(), trace: new RecordingTrace(), logger })), governorHome: home, hookApprovals: new FileHookApprovals(join(home, 'approvals')) };
  services.sessions.bindIntent('s1', 'auth-refactor');
  const governor = new Governor(services);
  return {
    root,
    home,
    governor,
    logger,
    hooks: (config) => writeFile(join(home, 'hooks.json'), JSON.stringify({ hooks: config })),
    call: (tool, input, session = 's1') => governor.run({ tool, input, session_id: session, agent: { name: 'test-agent' } }, { mode: 'execute' }),
  };
}

const DENY_SECRETS = { matcher: 'Write', hooks: [{ type: 'command', if: 'Write(src/auth/secret*)', command: 'echo "no secrets here" >&2; exit 2' }] };

describe("issue 24: a hooks file copied from Claude Code's documentation", function () {
  this.timeout(30_000);
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('knows every event Claude Code documents today, FileChanged and the task and worktree events among them', () => {
    for (const event of ['FileChanged', 'CwdChanged', 'PostCompact', 'Setup', 'ConfigChange', 'InstructionsLoaded', 'StopFailure', 'TaskCreated', 'TaskCompleted', 'WorktreeCreate', 'WorktreeRemove', 'UserPromptExpansion', 'PostToolBatch', 'TeammateIdle', 'Elicitation', 'ElicitationResult']) {
      assert.ok((CLAUDE_HOOK_EVENTS as readonly string[]).includes(event), event);
    }
    const every = Object.fromEntries(CLAUDE_HOOK_EVENTS.map((event) => [event, [{ hooks: [{ type: 'command', command: `echo ${event}` }] }]]));
    const parsed = parseHooksConfig({ hooks: every }, { layer: 'project', file: '.orchestration/hooks.json' }, { strict: true });
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
    assert.equal(parsed.hooks.length, CLAUDE_HOOK_EVENTS.length);
  });

  it('a FileChanged hook beside a PreToolUse deny: the deny still decides, in-scope writes still land', async () => {
    const w = await world();
    await w.hooks({ FileChanged: [{ matcher: '.env', hooks: [{ type: 'command', command: 'echo changed' }] }], PreToolUse: [DENY_SECRETS] });
    assert.ok((await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' })).ok);
    const refused = await w.call('write_file', { path: 'src/auth/secrets.ts', content: 'x\n' });
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, 'HOOK_BLOCKED');
    assert.match(refused.error.message, /no secrets here/);
  });

  it('an unknown event is a warning for that entry only (naming the event meant), never a refusal of every call', async () => {
    const w = await world();
    await w.hooks({ pretooluse: [{ hooks: [{ type: 'command', command: 'exit 2' }] }], PreToolUse: [DENY_SECRETS] });
    assert.ok((await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' })).ok);
    const refused = await w.call('write_file', { path: 'src/auth/secrets.ts', content: 'x\n' });
    assert.equal(!refused.ok && refused.error.code, 'HOOK_BLOCKED');
    const loaded = w.governor.userHooks.load('test-agent');
    assert.deepEqual(loaded.problems, []);
    assert.ok(loaded.warnings.some((m) => m.includes('hooks.pretooluse') && m.includes('PreToolUse')), JSON.stringify(loaded.warnings));
    assert.ok(w.logger.lines.some((l) => l.startsWith('warn ') && l.includes('hooks.pretooluse')), 'the warning is logged');
  });

  it('a broken entry of an observation event is skipped with a warning; a broken PreToolUse entry still fails closed', async () => {
    const w = await world();
    await w.hooks({ PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command' }] }], PreToolUse: [DENY_SECRETS] });
    assert.ok((await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' })).ok);
    assert.ok(w.governor.userHooks.load('test-agent').warnings.some((m) => m.includes('hooks.PostToolUse[0].hooks[0]')));
    await w.hooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command' }] }] });
    const refused = await w.call('write_file', { path: 'src/auth/a.ts', content: 'y\n' });
    assert.equal(!refused.ok && refused.error.code, 'HOOK_ERROR');
  });

  it('`"async": true` on PreToolUse runs the hook in the background: it never blocks, and it ran', async () => {
    const w = await world();
    const marker = join(w.home, 'async-pre.txt');
    await w.hooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', async: true, command: `sleep 0.2; echo ran > ${JSON.stringify(marker)}; exit 2` }] }] });
    const result = await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
    assert.ok(result.ok, JSON.stringify(result));
    await w.governor.userHooks.drain();
    assert.equal((await readFile(marker, 'utf8')).trim(), 'ran');
  });
});

describe("issue 24: every output field of Claude Code's protocol and seed 000", function () {
  this.timeout(30_000);
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('updatedToolOutput from PostToolUse replaces what the model reads at the MCP door; the record keeps what happened', async () => {
    const { startHttpMcpServer } = await import('../../../../src/core/mcp/httpMcpServer');
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const w = await world();
    await writeFile(join(w.root, 'src/auth/keys.ts'), 'export const KEY = "sk-live-123";\n');
    const redact = `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"[redacted by policy]"}}'`;
    await w.hooks({ PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: redact }] }] });
    const server = await startHttpMcpServer({ governor: w.governor, name: 'intent-governor', version: 'test', logger: w.logger });
    const client = new Client({ name: 'redaction-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } }));
      const result = (await client.callTool({ name: 'read_file', arguments: { path: 'src/auth/keys.ts' } })) as { content: { text: string }[] };
      const text = result.content.map((c) => c.text).join('\n');
      assert.ok(text.startsWith('[redacted by policy]'), text);
      assert.ok(!text.includes('sk-live-123'), text);
    } finally {
      await client.close().catch(() => undefined);
      await server.close();
    }
  });

  it('PostToolUse: a block reason reaches the model once, not twice', async () => {
    const w = await world();
    await w.hooks({ PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: `echo '{"decision":"block","reason":"lint failed: 3 problems"}'` }] }] });
    const result = await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
    assert.equal(result.context.join('\n').split('lint failed').length - 1, 1, JSON.stringify(result.context));
  });

  it('permissionDecision "defer" asks a person (the governor cannot pause a call), never a HOOK_ERROR', async () => {
    const w = await world();
    const approver = w.governor.services.approver as ScriptedApprover;
    approver.script(false);
    await w.hooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}'` }] }] });
    const result = await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'HITL_REJECT');
    assert.equal(approver.requests.length, 1);
    assert.match(approver.requests[0].reasons.join(' '), /deferred/);
  });

  it('a first stdout line {"async": true} detaches the hook: the call does not wait for it and it blocks nothing', async () => {
    const w = await world();
    await w.hooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: `echo '{"async": true}'; sleep 3; echo late >&2; exit 2` }] }] });
    const started = Date.now();
    const result = await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
    assert.ok(result.ok, JSON.stringify(result));
    assert.ok(Date.now() - started < 2500, `took ${Date.now() - started} ms`);
  });

  it('"shell": "powershell" without PowerShell on PATH fails with a clear message, per its onFailure', async () => {
    const w = await world();
    const env = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      await w.hooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', shell: 'powershell', command: 'Write-Output ok' }, { type: 'command', shell: 'powershell', command: 'exit 2', onFailure: 'continue' }] }] });
      const refused = await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
      assert.equal(!refused.ok && refused.error.code, 'HOOK_ERROR');
      assert.match(!refused.ok ? refused.error.message : '', /neither pwsh nor powershell is on PATH/);
    } finally {
      process.env.PATH = env;
    }
  });

  it("Claude's agent-only fields are kept, and Claude Code's door passes them on: updatedToolOutput, updatedPermissions, retry", async () => {
    const { readHookJson } = await import('../../../../src/core/userHooks/hookOutput');
    const { renderClaudeStyle } = await import('../../../../src/core/agents/common/claudeStyleProtocol');
    const post = readHookJson('PostToolUse', { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: { content: [{ type: 'text', text: 'redacted' }] } } });
    assert.ok(typeof post !== 'string');
    assert.deepEqual(post.updatedToolOutput, { content: [{ type: 'text', text: 'redacted' }] });
    const request = readHookJson('PermissionRequest', { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] } } });
    assert.ok(typeof request !== 'string');
    assert.deepEqual(request.passThrough, { updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] });
    const denied = readHookJson('PermissionDenied', { hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: true } });
    assert.ok(typeof denied !== 'string');
    assert.deepEqual(denied.passThrough, { retry: true });

    const tool = { kind: 'tool', phase: 'post', eventName: 'PostToolUse', sessionId: 's', toolName: 'Read', toolInput: {}, fields: {} } as const;
    const reply = JSON.parse(renderClaudeStyle(tool, { decision: 'allow', updatedToolOutput: 'redacted' }).stdout) as { hookSpecificOutput: Record<string, unknown> };
    assert.equal(reply.hookSpecificOutput.updatedToolOutput, 'redacted');
    const mcp = JSON.parse(renderClaudeStyle({ ...tool, toolName: 'mcp__github__get_file' }, { decision: 'allow', updatedToolOutput: 'redacted' }).stdout) as { hookSpecificOutput: Record<string, unknown> };
    assert.equal(mcp.hookSpecificOutput.updatedMCPToolOutput, 'redacted');
    const permission = { kind: 'context', eventName: 'PermissionRequest', hookEvent: 'PermissionRequest', sessionId: 's', fields: {} } as const;
    const allowed = JSON.parse(renderClaudeStyle(permission, { decision: 'allow', passThrough: { updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits' }] } }).stdout) as { hookSpecificOutput: { decision: Record<string, unknown> } };
    assert.deepEqual(allowed.hookSpecificOutput.decision, { behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits' }] });
  });
});

describe('issue 24: fields a door cannot carry are said, never dropped in silence', function () {
  this.timeout(30_000);
  it('retry from PermissionDenied at the governed door is a warning naming the field and where it works', async () => {
    const w = await world();
    await writeFile(join(w.root, 'src/auth/old.ts'), 'x');
    (w.governor.services.approver as ScriptedApprover).script(false);
    await w.hooks({ PermissionDenied: [{ hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}'` }] }] });
    await w.call('read_file', { path: 'src/auth/old.ts' });
    await w.call('delete_file', { path: 'src/auth/old.ts' });
    assert.ok(w.logger.lines.some((l) => l.startsWith('warn ') && l.includes('returned retry') && l.includes("only Claude Code's door")), w.logger.lines.join('\n'));
  });
});

describe("issue 24: the hook's input and environment, as Claude Code and seed 004 define them", function () {
  this.timeout(30_000);
  it('stdin carries tool_use_id and hook_name; a post hook gets $EXIT_CODE', async () => {
    const w = await world();
    const seen = join(w.home, 'input.jsonl');
    const env = join(w.home, 'exit.txt');
    await w.hooks({
      PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', name: 'record-input', command: `cat >> ${JSON.stringify(seen)}; echo >> ${JSON.stringify(seen)}` }] }],
      PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: `echo "exit=$EXIT_CODE" > ${JSON.stringify(env)}` }] }],
    });
    assert.ok((await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' })).ok);
    const input = JSON.parse((await readFile(seen, 'utf8')).trim()) as Record<string, unknown>;
    assert.equal(typeof input.tool_use_id, 'string');
    assert.equal(input.hook_name, 'record-input');
    assert.equal((await readFile(env, 'utf8')).trim(), 'exit=0');
  });

  it("Claude Code's tool_use_id reaches the hooks at its native door", async () => {
    const { parseClaudeStyle } = await import('../../../../src/core/agents/common/claudeStyleProtocol');
    const parsed = parseClaudeStyle({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Write', tool_input: {}, tool_use_id: 'toolu_01' });
    assert.ok(parsed.ok && parsed.event.kind === 'tool');
    assert.equal(parsed.ok && parsed.event.kind === 'tool' && parsed.event.fields?.tool_use_id, 'toolu_01');
  });
});

describe('issue 24: layers: ~/.claude/settings.json, .agents/hooks.toml, the managed file', function () {
  this.timeout(30_000);
  const saved = { HOME: process.env.HOME, MANAGED: process.env.INTENT_GOVERNOR_MANAGED_FILE };
  let person: string;
  beforeEach(async () => {
    person = await mkdtemp(join(tmpdir(), 'ig-person-'));
    dirs.push(person);
    process.env.HOME = person;
    process.env.INTENT_GOVERNOR_MANAGED_FILE = join(person, 'managed.json');
  });
  afterEach(() => {
    process.env.HOME = saved.HOME;
    if (saved.MANAGED === undefined) delete process.env.INTENT_GOVERNOR_MANAGED_FILE;
    else process.env.INTENT_GOVERNOR_MANAGED_FILE = saved.MANAGED;
  });

  it("the person's ~/.claude/settings.json hooks guard the other doors (HOME respected), without approval", async () => {
    const w = await world();
    await mkdir(join(person, '.claude'), { recursive: true });
    await writeFile(join(person, '.claude', 'settings.json'), JSON.stringify({ model: 'x', hooks: { PreToolUse: [DENY_SECRETS] } }));
    const refused = await w.call('write_file', { path: 'src/auth/secrets.ts', content: 'x\n' });
    assert.equal(!refused.ok && refused.error.code, 'HOOK_BLOCKED');
    const sources = w.governor.userHooks.load('test-agent').hooks.map((h) => [h.source.layer, h.source.file]);
    assert.deepEqual(sources, [['claude-user', '~/.claude/settings.json']]);
    assert.deepEqual(w.governor.userHooks.load('claude-code').hooks, [], 'Claude Code runs its own settings itself');
  });

  it("seed 003's ~/.agents/hooks.toml runs (a pre_tool hook refuses by its exit code); the project's .agents/hooks.toml waits for approval", async () => {
    const w = await world();
    await mkdir(join(person, '.agents'), { recursive: true });
    await writeFile(
      join(person, '.agents', 'hooks.toml'),
      [
        '[[hooks]]',
        'name = "no-secrets"',
        'events = ["pre_tool"]',
        'tools = ["write_file"]',
        `command = "grep -q 'secrets[.]ts' && { echo 'no secrets, says toml' >&2; exit 1; } || exit 0"`,
        'timeout = "5s"',
        '',
      ].join('\n'),
    );
    await mkdir(join(w.root, '.agents'), { recursive: true });
    await writeFile(join(w.root, '.agents', 'hooks.toml'), '[[hooks]]\nname = "project-log"\nevents = ["post_tool"]\ncommand = "true"\n');
    assert.ok((await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' })).ok);
    const refused = await w.call('write_file', { path: 'src/auth/secrets.ts', content: 'x\n' });
    assert.ok(!refused.ok);
    assert.match(refused.error.message, /no-secrets/);
    const { listHooks } = await import('../../../../src/core/userHooks/hookListing');
    const listing = await listHooks(w.root, { home: w.home, approvals: new FileHookApprovals(join(w.home, 'approvals')), runLog: { record: async () => undefined, read: async () => ({}) }, trusted: true });
    assert.deepEqual(listing.hooks.map((r) => [r.name, r.source, r.state]), [
      ['no-secrets', '~/.agents/hooks.toml', 'users_own'],
      ['project-log', '.agents/hooks.toml', 'not_approved'],
    ]);
  });

  it('the managed file: its hooks run last and always; allowManagedHooksOnly stops the others; disableAllHooks stops all; a broken one refuses decisions', async () => {
    const w = await world();
    const managed = join(person, 'managed.json');
    await w.hooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'` }] }] });
    await writeFile(managed, JSON.stringify({ hooks: { PreToolUse: [DENY_SECRETS] } }));
    const refused = await w.call('write_file', { path: 'src/auth/secrets.ts', content: 'x\n' });
    assert.equal(!refused.ok && refused.error.code, 'HOOK_BLOCKED', "a user hook's allow does not lift the managed deny");
    assert.deepEqual(w.governor.userHooks.load('test-agent').hooks.map((h) => h.source.layer), ['user', 'managed']);

    await writeFile(managed, JSON.stringify({ allowManagedHooksOnly: true, hooks: { PreToolUse: [DENY_SECRETS] } }));
    assert.deepEqual(w.governor.userHooks.load('test-agent').hooks.map((h) => h.source.layer), ['managed']);

    await writeFile(managed, JSON.stringify({ disableAllHooks: true, hooks: { PreToolUse: [DENY_SECRETS] } }));
    assert.deepEqual(w.governor.userHooks.load('test-agent').hooks, []);
    assert.ok((await w.call('write_file', { path: 'src/auth/secrets.ts', content: 'y\n' })).ok);

    await writeFile(join(w.home, 'hooks.json'), JSON.stringify({ disableAllHooks: true, hooks: { PreToolUse: [DENY_SECRETS] } }));
    await writeFile(managed, '{ not json');
    const broken = await w.call('write_file', { path: 'src/auth/a.ts', content: 'z\n' });
    assert.equal(!broken.ok && broken.error.code, 'HOOK_ERROR');
    await writeFile(managed, '{}');
    const loaded = w.governor.userHooks.load('test-agent');
    assert.equal(loaded.hooks.length, 1, "a user file's disableAllHooks switches nothing off");
    assert.ok(loaded.notes.some((n) => n.includes('disableAllHooks is honoured only in the managed file')));
  });
});

describe('issue 24: the listing shows what really ran', function () {
  this.timeout(60_000);
  const listingOf = async (w: World) => {
    const { listHooks } = await import('../../../../src/core/userHooks/hookListing');
    const { FileHookRunLog } = await import('../../../../src/core/userHooks/fileHookRunLog');
    return listHooks(w.root, { home: w.home, approvals: new FileHookApprovals(join(w.home, 'approvals')), runLog: new FileHookRunLog(join(w.home, 'hook-runs')), trusted: true });
  };

  it("a hook replaced at the same place shows its own last run, not its predecessor's", async () => {
    const w = await world();
    await w.hooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'exit 2' }] }] });
    await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
    assert.match((await listingOf(w)).hooks[0].lastRunText, /^deny/);
    await w.hooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'exit 0' }] }] });
    assert.equal((await listingOf(w)).hooks[0].lastRunText, 'never run');
    await w.call('write_file', { path: 'src/auth/a.ts', content: 'y\n' });
    assert.match((await listingOf(w)).hooks[0].lastRunText, /^none/);
  });

  it('after an approval, the stale "skipped: not approved" is not shown', async () => {
    const w = await world();
    await writeFile(join(w.root, '.orchestration', 'hooks.json'), JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'true' }] }] } }));
    await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
    const before = (await listingOf(w)).hooks[0];
    assert.equal(before.lastRunText, 'skipped: not approved');
    await new FileHookApprovals(join(w.home, 'approvals')).approve(w.root, before.approvalHash, before.action);
    assert.equal((await listingOf(w)).hooks[0].lastRunText, 'approved since; not run yet');
  });
});

/** Claude Code's documentation as one settings file: every event, all five hook types, every output field. */
const DOCS_FIXTURE = join(__dirname, '..', '..', '..', 'fixtures', 'hooks', 'claude-docs-settings.json');
const PLACEMENTS = [
  { file: '.orchestration/hooks.json', layer: 'project' },
  { file: '.claude/settings.json', layer: 'claude' },
] as const;

describe("issue 24: Claude Code's documentation as a hooks file (test/fixtures/hooks/claude-docs-settings.json)", function () {
  this.timeout(60_000);
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  /** The fixture at `file` in a fresh workspace, every hook in it approved as a person does it. */
  const placed = async (file: string): Promise<World> => {
    const w = await world();
    await mkdir(join(w.root, file, '..'), { recursive: true });
    await writeFile(join(w.root, file), await readFile(DOCS_FIXTURE, 'utf8'));
    const approvals = new FileHookApprovals(join(w.home, 'approvals'));
    const { hookActionText } = await import('../../../../src/core/userHooks/hookListing');
    for (const spec of w.governor.userHooks.load('test-agent').hooks) await approvals.approve(w.root, spec.approvalHash, hookActionText(spec.action));
    return w;
  };

  for (const placement of PLACEMENTS) {
    it(`loads with no problem and no warning as ${placement.file}: every event, all five hook types, agent and mcp_tool said in notes`, async () => {
      const w = await placed(placement.file);
      const { listHooks } = await import('../../../../src/core/userHooks/hookListing');
      const listing = await listHooks(w.root, { home: w.home, approvals: new FileHookApprovals(join(w.home, 'approvals')), runLog: { record: async () => undefined, read: async () => ({}) }, trusted: true });
      assert.deepEqual(listing.problems, []);
      assert.deepEqual(listing.warnings, []);
      assert.ok(listing.hooks.every((row) => row.source === placement.file && row.layer === placement.layer));
      for (const event of CLAUDE_HOOK_EVENTS) assert.ok(listing.hooks.some((row) => row.event === event), `no hook listed for ${event}`);
      assert.deepEqual([...new Set(listing.hooks.map((row) => row.type))].sort(), ['agent', 'command', 'http', 'mcp_tool', 'prompt']);
      // The observation event's mcp_tool hook is left to Claude Code; the decision event's stays, so its onFailure decides.
      assert.deepEqual(listing.hooks.filter((row) => row.type === 'mcp_tool').map((row) => row.event), ['PreToolUse']);
      assert.ok(listing.notes.some((n) => n.includes('hooks.PostToolUse[3].hooks[1] calls the MCP tool memory/remember: mcp_tool hooks run only in Claude Code')), listing.notes.join('\n'));
      assert.equal(listing.notes.filter((n) => n.includes('runs as a prompt hook here: no tools')).length, 2, listing.notes.join('\n'));
    });

    it(`at the MCP door, as ${placement.file}: the PreToolUse deny of src/auth/forbidden.ts holds, an ordinary in-scope write lands`, async () => {
      const { startHttpMcpServer } = await import('../../../../src/core/mcp/httpMcpServer');
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      const w = await placed(placement.file);
      const server = await startHttpMcpServer({ governor: w.governor, name: 'intent-governor', version: 'test', logger: w.logger });
      const client = new Client({ name: 'docs-fixture-test', version: '1.0.0' });
      type Result = { isError?: boolean; content: { text: string }[] };
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = (await client.callTool({ name, arguments: args })) as Result;
        return { isError: result.isError === true, text: result.content.map((c) => c.text).join('\n') };
      };
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } }));
        assert.equal((await call('select_active_intent', { intent_id: 'auth-refactor' })).isError, false);
        const refused = await call('write_file', { path: 'src/auth/forbidden.ts', content: 'export const KEY = 1;\n' });
        assert.equal(refused.isError, true, refused.text);
        assert.match(refused.text, /src\/auth\/forbidden\.ts is off limits/);
        await assert.rejects(readFile(join(w.root, 'src/auth/forbidden.ts')), 'the forbidden write did not land');
        const written = await call('write_file', { path: 'src/auth/session.ts', content: 'export const TTL = 60;\n' });
        assert.equal(written.isError, false, written.text);
        assert.equal(await readFile(join(w.root, 'src/auth/session.ts'), 'utf8'), 'export const TTL = 60;\n');
      } finally {
        await client.close().catch(() => undefined);
        await server.close();
        await w.governor.userHooks.drain();
      }
    });
  }

  it("every answer its command hooks give is read by the protocol, and together they use every output field Claude Code documents", async () => {
    const { readHookJson } = await import('../../../../src/core/userHooks/hookOutput');
    const file = JSON.parse(await readFile(DOCS_FIXTURE, 'utf8')) as { hooks: Record<string, { hooks: { type: string; command?: string }[] }[]> };
    const fields = new Set<string>();
    const collect = (value: unknown, prefix = ''): void => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
      for (const [key, inner] of Object.entries(value)) {
        fields.add(prefix + key);
        if (key === 'permissionDecision' || key === 'behavior') fields.add(`${key}=${String(inner)}`);
        if (key === 'hookSpecificOutput' || key === 'decision') collect(inner, '');
      }
    };
    for (const [event, groups] of Object.entries(file.hooks)) {
      for (const hook of groups.flatMap((group) => group.hooks)) {
        const echoed = hook.type === 'command' ? /^echo '(.*)'$/s.exec(hook.command ?? '') : null;
        if (!echoed) continue;
        const answer = JSON.parse(echoed[1]) as Record<string, unknown>;
        const read = readHookJson(event as (typeof CLAUDE_HOOK_EVENTS)[number], answer);
        assert.notEqual(typeof read, 'string', `${event}: ${String(read)}`);
        collect(answer);
      }
    }
    const documented = ['continue', 'stopReason', 'suppressOutput', 'systemMessage', 'decision', 'reason', 'additionalContext', 'permissionDecision=allow', 'permissionDecision=deny', 'permissionDecision=ask', 'permissionDecision=defer', 'permissionDecisionReason', 'updatedInput', 'updatedToolOutput', 'updatedMCPToolOutput', 'behavior=allow', 'behavior=deny', 'message', 'interrupt', 'updatedPermissions', 'retry', 'watchPaths'];
    assert.deepEqual(documented.filter((field) => !fields.has(field)), []);
  });
});

describe('issue 24: agent and mcp_tool hooks at a door that is not Claude Code', function () {
  this.timeout(30_000);
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('an agent hook runs as a prompt hook (one judgement on its prompt and the input, no tools): its {"ok": false} refuses, {"ok": true} lets the write land', async () => {
    const w = await world();
    const prompts: string[] = [];
    w.governor.services.promptHooks = {
      run: async (action, _spec, context) => {
        prompts.push(`${action.agent ? 'agent' : 'prompt'}: ${action.prompt.replace('$ARGUMENTS', context.input)}`);
        const ok = !context.input.includes('forbidden');
        return { kind: 'exited', exitCode: 0, stdout: JSON.stringify(ok ? { ok: true } : { ok: false, reason: 'the reviewer says no' }), stderr: '', durationMs: 1 };
      },
    };
    // The executors are read when the runner is made: a governor over these services.
    const governor = new Governor(w.governor.services);
    await writeFile(join(w.home, 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'agent', prompt: 'Review this write: $ARGUMENTS' }] }] } }));
    const run = (path: string) => governor.run({ tool: 'write_file', input: { path, content: 'x\n' }, session_id: 's1', agent: { name: 'test-agent' } }, { mode: 'execute' });
    const refused = await run('src/auth/forbidden.ts');
    assert.equal(!refused.ok && refused.error.code, 'HOOK_BLOCKED');
    assert.match(!refused.ok ? refused.error.message : '', /the reviewer says no/);
    assert.ok((await run('src/auth/fine.ts')).ok);
    assert.equal(prompts.length, 2);
    assert.match(prompts[0], /^agent: Review this write: \{.*"tool_name":"write_file"/s);
  });

  it('headless (no language model), an agent hook on PreToolUse is refused saying so, unless its onFailure is "continue"', async () => {
    const w = await world();
    await w.hooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'agent', prompt: 'Review: $ARGUMENTS' }] }] });
    const refused = await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
    assert.equal(!refused.ok && refused.error.code, 'HOOK_BLOCKED');
    assert.match(!refused.ok ? refused.error.message : '', /agent hook \(run here as a prompt hook\) .*needs a language model/);
    await w.hooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'agent', prompt: 'Review: $ARGUMENTS', onFailure: 'continue' }] }] });
    assert.ok((await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' })).ok);
  });

  it("a user's mcp_tool hook on PreToolUse is never skipped in silence: its onFailure refuses, naming why it could not run; \"continue\" lets the write land", async () => {
    const w = await world();
    const scan = { type: 'mcp_tool', server: 'semgrep', tool: 'scan_file', input: { path: '${tool_input.file_path}' } };
    await w.hooks({ PreToolUse: [{ matcher: 'Write', hooks: [scan] }], PostToolUse: [{ matcher: 'Write', hooks: [scan] }] });
    const refused = await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' });
    assert.equal(!refused.ok && refused.error.code, 'HOOK_BLOCKED');
    assert.match(!refused.ok ? refused.error.message : '', /mcp_tool hooks run only in Claude Code/);
    await assert.rejects(readFile(join(w.root, 'src/auth/a.ts')));
    await w.hooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ ...scan, onFailure: 'continue' }] }], PostToolUse: [{ matcher: 'Write', hooks: [scan] }] });
    assert.ok((await w.call('write_file', { path: 'src/auth/a.ts', content: 'x\n' })).ok);
    const loaded = w.governor.userHooks.load('test-agent');
    assert.deepEqual(loaded.problems, []);
    assert.deepEqual(loaded.hooks.map((h) => h.event), ['PreToolUse'], 'the PostToolUse one is left to Claude Code');
  });
});
