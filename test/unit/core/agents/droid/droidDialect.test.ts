import { strict as assert } from 'node:assert';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentById, DIALECTS, HOOK_CONFIG_FILES } from '../../../../../src/core/agents/registry';
import { droidDialect } from '../../../../../src/core/agents/droid/droidDialect';
import { droidCanary } from '../../../../../src/core/agents/droid/droidCanary';
import type { HookEvent } from '../../../../../src/core/agents/common/hookDialect';
import type { ToolMapping } from '../../../../../src/core/agents/common/nativeCall';
import { protectedPatternFor } from '../../../../../src/core/paths/protectedPaths';
import { hookFixture } from '../../../../support/runHook';
import { removeTree } from '../../../../support/removeTree';

/** The tools Droid 0.225.2 offers a custom Anthropic model in `droid exec --auto high` (the agent suite checks them against the binary). */
const OFFERED = ['Read', 'LS', 'Execute', 'Edit', 'Grep', 'Glob', 'Create', 'TaskOutput', 'TaskStop', 'ToolSearch', 'Skill', 'Task'];
/** Listed by `droid exec --list-tools` but not offered headless; they change settings, loop or run missions: refused. */
const REFUSED = ['StageSettingsChanges', 'Loop', 'GenerateDroid', 'StartMissionRun', 'ProposeMission', 'EndFeatureRun', 'DismissHandoffItems'];

function parsed(fixture: string, root: string): HookEvent {
  const result = droidDialect.parse(JSON.parse(hookFixture('droid', fixture, root)));
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.event;
}

function governed(mapping: ToolMapping) {
  assert.equal(mapping.kind, 'governed', JSON.stringify(mapping));
  return mapping.kind === 'governed' ? mapping.calls : [];
}

function reasonOf(mapping: ToolMapping): string {
  assert.equal(mapping.kind, 'refused', JSON.stringify(mapping));
  return mapping.kind === 'refused' ? mapping.reason : '';
}

describe('Factory Droid dialect', () => {
  let root: string;
  const place = () => ({ cwd: root, workspace: root });
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'ig-droid-')));
  });
  afterEach(() => removeTree(root));

  it('is `governor hook droid`, traced as factory-droid, its hooks in .factory/hooks.json, which no intent may write; its Execute runs confined', () => {
    assert.equal(DIALECTS.droid, droidDialect);
    assert.equal(droidDialect.agentName, 'factory-droid');
    assert.equal(HOOK_CONFIG_FILES.droid, '.factory/hooks.json');
    assert.equal(agentById('droid')?.shellConfinement, 'sandboxed');
    assert.deepEqual(droidDialect.confineShell?.('Execute', { command: 'ls', riskLevel: 'low', riskLevelReason: 'r' }, 'bwrap ls'), { command: 'bwrap ls', riskLevel: 'low', riskLevelReason: 'r' });
    assert.equal(droidDialect.confineShell?.('Create', { file_path: 'x', content: '' }, 'bwrap ls'), undefined);
    for (const path of ['.factory/hooks.json', '.factory/settings.json', '.factory/droids/helper.md']) assert.ok(protectedPatternFor(path), path);
  });

  describe('parse', () => {
    it("reads the binary's PreToolUse and PostToolUse as the tool phases (no call id: keyed by the call's content), in the main session and a subagent's", () => {
      const pre = parsed('pre-create-in-scope', root);
      assert.equal(pre.kind, 'tool');
      if (pre.kind !== 'tool') return;
      assert.equal(pre.phase, 'pre');
      assert.equal(pre.toolName, 'Create');
      assert.equal(pre.sessionId, 'ca41249f-d331-4cc5-96fa-89317f64d8b4');
      assert.equal(pre.toolUseId, undefined);
      assert.equal(pre.fields?.permission_mode, 'auto-high');
      const post = parsed('post-create', root);
      assert.ok(post.kind === 'tool' && post.phase === 'post');
      const sub = parsed('pre-create-in-subagent', root);
      assert.ok(sub.kind === 'tool' && sub.sessionId === 'a6d58d44-587f-4b1d-b89a-a745ba7b95f2', 'a subagent has its own session');
    });

    it('reads SessionStart (the subagent’s too, with calling_session_id), SubagentStop as context events', () => {
      const start = parsed('session-start-subagent', root);
      assert.equal(start.kind, 'context');
      if (start.kind === 'context') assert.equal(start.fields?.calling_session_id, 'ca41249f-d331-4cc5-96fa-89317f64d8b4');
      assert.equal(parsed('subagent-stop', root).kind, 'context');
    });

    it('refuses an event Droid does not send, and a payload without a tool or session', () => {
      const unknown = droidDialect.parse({ hook_event_name: 'PermissionRequest', session_id: 's', cwd: root });
      assert.equal(unknown.ok, false);
      assert.match(unknown.ok ? '' : unknown.message, /'PermissionRequest' is not a hook event Intent Governor knows from Factory Droid/);
      assert.equal(droidDialect.parse({ hook_event_name: 'PreToolUse', cwd: root, tool_name: 'Create', tool_input: {} }).ok, false);
      assert.equal(droidDialect.parse({ hook_event_name: 'PreToolUse', session_id: 's', cwd: root, tool_input: {} }).ok, false);
    });
  });

  describe('mapTool', () => {
    it('knows every tool the binary offers: none is refused as unknown', () => {
      for (const tool of OFFERED) {
        const mapping = droidDialect.mapTool(tool, {}, place());
        assert.ok(!(mapping.kind === 'refused' && /does not know/.test(mapping.reason)), tool);
      }
    });

    it('refuses the tools that change settings or run missions, and any tool it does not know', () => {
      for (const tool of [...REFUSED, 'Write', 'Bash']) assert.match(reasonOf(droidDialect.mapTool(tool, {}, place())), /does not know/, tool);
    });

    it('Create is a write_file; a relative path resolves against the working directory', () => {
      assert.deepEqual(governed(droidDialect.mapTool('Create', { file_path: join(root, 'src/a.ts'), content: 'x' }, place())), [{ tool: 'write_file', input: { path: join(root, 'src/a.ts'), content: 'x' } }]);
      assert.deepEqual(governed(droidDialect.mapTool('Create', { file_path: 'src/b.ts', content: 'y' }, place())), [{ tool: 'write_file', input: { path: join(root, 'src/b.ts'), content: 'y' } }]);
      assert.match(reasonOf(droidDialect.mapTool('Create', { file_path: 'x' }, place())), /file_path and content/);
    });

    it('Edit is an edit_file of old_str → new_str (change_all: every occurrence); an empty old_str creates the file', () => {
      const path = join(root, 'a.ts');
      assert.deepEqual(governed(droidDialect.mapTool('Edit', { file_path: path, old_str: 'a', new_str: 'b', change_all: true }, place())), [{ tool: 'edit_file', input: { path }, edits: [{ search: 'a', replace: 'b', all: true }] }]);
      assert.deepEqual(governed(droidDialect.mapTool('Edit', { file_path: path, old_str: 'a', new_str: 'b' }, place())), [{ tool: 'edit_file', input: { path }, edits: [{ search: 'a', replace: 'b', all: false }] }]);
      assert.deepEqual(governed(droidDialect.mapTool('Edit', { file_path: path, old_str: '', new_str: 'n' }, place())), [{ tool: 'write_file', input: { path, content: 'n' } }]);
      assert.match(reasonOf(droidDialect.mapTool('Edit', { file_path: path, old_string: 'a', new_string: 'b' }, place())), /old_str and new_str/);
    });

    it('Execute is a run_command in the working directory; Read a read_file; ApplyPatch a write per added file', () => {
      assert.deepEqual(governed(droidDialect.mapTool('Execute', { command: 'ls', summary: 's', riskLevel: 'low' }, place())), [{ tool: 'run_command', input: { command: 'ls', cwd: root } }]);
      assert.deepEqual(governed(droidDialect.mapTool('Read', { file_path: 'a.ts' }, place())), [{ tool: 'read_file', input: { path: join(root, 'a.ts') } }]);
      const patch = '*** Begin Patch\n*** Add File: src/n.ts\n+new\n*** End Patch\n';
      const calls = governed(droidDialect.mapTool('ApplyPatch', { input: patch }, place()));
      assert.equal(calls[0].tool, 'write_file');
      assert.equal(calls[0].input.path, join(root, 'src/n.ts'));
    });

    it("refuses another MCP server's tools and lets the governor's own through", () => {
      assert.match(reasonOf(droidDialect.mapTool('mcp__other__do', {}, place())), /another MCP server/);
      assert.equal(droidDialect.mapTool('mcp__intent-governor__list_intents', {}, place()).kind, 'passthrough');
    });
  });

  describe('render', () => {
    const pre = (): HookEvent => parsed('pre-execute', root);

    it('a deny is a permissionDecision deny with the reason; a failure is exit 2 with the reason on stderr', () => {
      const out = JSON.parse(droidDialect.render(pre(), { decision: 'deny', reason: 'no' }).stdout);
      assert.deepEqual(out.hookSpecificOutput, { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' });
      assert.deepEqual(droidDialect.renderFailure('broken'), { exitCode: 2, stdout: '', stderr: 'Intent Governor blocked this call: broken\n' });
    });

    it('an ask is refused, saying who can approve it (Droid would let its autonomy level run it)', () => {
      const out = JSON.parse(droidDialect.render(pre(), { decision: 'ask', reason: 'Destructive command: rm -rf x', updatedInput: { command: 'x' } }).stdout);
      assert.equal(out.hookSpecificOutput.permissionDecision, 'deny');
      assert.match(out.hookSpecificOutput.permissionDecisionReason, /^Destructive command: rm -rf x .*approve it in VS Code/);
      assert.equal(out.hookSpecificOutput.updatedInput, undefined);
    });

    it('an allow carries the rewritten input; one that drops an argument Droid would keep is refused', () => {
      const event = pre();
      assert.ok(event.kind === 'tool');
      const full = { ...(event.kind === 'tool' ? event.toolInput : {}), command: 'bwrap sh -c x' };
      assert.deepEqual(JSON.parse(droidDialect.render(event, { decision: 'allow', updatedInput: full }).stdout).hookSpecificOutput, { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: full });
      const dropped = JSON.parse(droidDialect.render(event, { decision: 'allow', updatedInput: { command: 'x' } }).stdout).hookSpecificOutput;
      assert.equal(dropped.permissionDecision, 'deny');
      assert.match(dropped.permissionDecisionReason, /without summary, riskLevel, riskLevelReason, and Factory Droid keeps arguments/);
    });

    it('an allow with nothing to say prints nothing', () => {
      assert.deepEqual(droidDialect.render(pre(), { decision: 'allow' }), { exitCode: 0, stdout: '', stderr: '' });
    });
  });

  describe('canary', () => {
    const call = { workspace: '/w', path: '/w/x.ts', relativePath: 'x.ts', sessionId: 'doctor:1', callId: 'c', content: 'x' };
    it('sends a Create as the binary does and reads exit 2 and a JSON deny as refusals, any other exit as a run', () => {
      const payload = droidCanary.payload(call);
      assert.equal(payload.tool_name, 'Create');
      assert.deepEqual(payload.tool_input, { file_path: '/w/x.ts', content: 'x' });
      assert.deepEqual(droidCanary.blocks({ via: 'process', exitCode: 2, stdout: '', stderr: 'no\n' }), { blocked: true, reason: 'no' });
      assert.equal(droidCanary.blocks({ via: 'process', exitCode: 0, stdout: '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r"}}', stderr: '' }).blocked, true);
      assert.equal(droidCanary.blocks({ via: 'process', exitCode: 1, stdout: '', stderr: '' }).blocked, false);
      assert.equal(droidCanary.blocks({ via: 'process', exitCode: 0, stdout: '', stderr: '' }).blocked, false);
    });
  });
});
