import { strict as assert } from 'node:assert';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIALECTS } from '../../../../../src/core/agents/registry';
import { opencodeDialect } from '../../../../../src/core/agents/opencode/opencodeDialect';
import { protectedPatternFor } from '../../../../../src/core/paths/protectedPaths';
import { dialectProbe } from '../../../../support/dialectProbe';

/** The tools OpenCode 1.18.33 offers the model in its first request (a "gpt-" model gets apply_patch instead of edit and write). */
const OFFERED = ['bash', 'edit', 'glob', 'grep', 'read', 'skill', 'task', 'todowrite', 'webfetch', 'write', 'apply_patch'];
/** Its other built-in tools, behind flags or other clients, and `invalid` (the model named a tool it lacks). */
const BEHIND_FLAGS = ['question', 'websearch', 'lsp', 'plan_exit', 'invalid', 'execute'];
/** Tools of earlier versions the brief names. */
const EARLIER = ['list', 'patch', 'multiedit', 'todoread'];
const PASSED = ['glob', 'grep', 'skill', 'task', 'todowrite', 'webfetch', 'question', 'websearch', 'lsp', 'plan_exit', 'invalid', 'list', 'todoread'];

const patch = (...lines: string[]) => ({ patchText: ['*** Begin Patch', ...lines, '*** End Patch'].join('\n') });
const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('OpenCode dialect', () => {
  let root: string;
  const { map, calls, reason, parsed } = dialectProbe(opencodeDialect, 'opencode', () => root);

  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'ig-opencode-')));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('is `governor hook opencode`, traced as opencode', () => {
    assert.equal(DIALECTS.opencode, opencodeDialect);
    assert.equal(opencodeDialect.agentName, 'opencode');
  });

  describe('parse (what the plugin sends, captured from opencode 1.18.33)', () => {
    it('reads tool.execute.before and after as the tool phases, with the project directory as cwd, the call id, and the result for user hooks', () => {
      assert.deepEqual(parsed('pre-write'), {
        kind: 'tool', phase: 'pre', eventName: 'tool.execute.before', sessionId: 'ses_df71c9469ffeczxH2CbjGL6wbD', cwd: root, toolName: 'write',
        toolInput: { filePath: 'src/auth/token.ts', content: 'export const token = 1;\n' }, toolUseId: 'call_scripted_2', fields: { worktree: '/' },
      });
      const post = parsed('post-write');
      assert.equal(post.kind === 'tool' && post.phase, 'post');
      assert.deepEqual(post.kind === 'tool' && post.fields?.tool_response, { title: `${root}/src/auth/token.ts`, output: 'Wrote file successfully.' });
    });

    it("reads the plugin's session.start as SessionStart (the intent handshake), answered with the context for the system prompt", () => {
      const start = opencodeDialect.parse({ event: 'session.start', sessionID: 'ses_1', directory: root, worktree: '/' });
      assert.ok(start.ok);
      assert.deepEqual(start.event, { kind: 'context', eventName: 'session.start', hookEvent: 'SessionStart', sessionId: 'ses_1', cwd: root, fields: { source: 'startup', worktree: '/' } });
      assert.deepEqual(json(opencodeDialect.render(start.event, { decision: 'allow', context: 'Intent: auth-refactor' }).stdout), { decision: 'allow', context: 'Intent: auth-refactor' });
    });

    it('reads session.deleted as the end of the session, and refuses any event the plugin does not send', () => {
      const end = opencodeDialect.parse({ event: 'session.deleted', sessionID: 'ses_1', directory: root });
      assert.deepEqual(end.ok && end.event, { kind: 'end', eventName: 'session.deleted', sessionId: 'ses_1', cwd: root, fields: {} });
      const other = opencodeDialect.parse({ event: 'session.idle', sessionID: 'ses_1', directory: root });
      assert.ok(!other.ok && other.message.includes("'session.idle' is not a hook event"));
    });

    it('refuses to read input it cannot judge: not an object, no event, session, directory, tool or args object', () => {
      const base = { event: 'tool.execute.before', sessionID: 's', callID: 'c', tool: 'write', args: {}, directory: root };
      for (const bad of [[], 'x', { ...base, event: 1 }, { ...base, sessionID: '' }, { ...base, directory: undefined }, { ...base, tool: '' }, { ...base, args: 'rm -rf' }]) {
        const result = opencodeDialect.parse(bad);
        assert.equal(result.ok, false, JSON.stringify(bad));
      }
    });
  });

  describe('mapTool: every tool OpenCode has', () => {
    it('knows every built-in tool: none is refused as unknown but execute', () => {
      for (const tool of [...OFFERED, ...BEHIND_FLAGS, ...EARLIER]) {
        const mapping = map(tool, {});
        if (mapping.kind === 'refused') assert.doesNotMatch(mapping.reason, /does not know/, tool);
      }
    });

    it('judges write and edit as the governed write and edit, filePath resolved against the project directory', () => {
      assert.deepEqual(calls(map('write', parsedInput('pre-write'))), [{ tool: 'write_file', input: { path: join(root, 'src/auth/token.ts'), content: 'export const token = 1;\n' } }]);
      assert.deepEqual(calls(map('edit', parsedInput('pre-edit'))), [{ tool: 'edit_file', input: { path: join(root, 'a.txt') }, edits: [{ search: 'hello', replace: 'bye', all: true }] }]);
      assert.deepEqual(calls(map('edit', { filePath: '/abs/x.ts', oldString: 'a', newString: 'b' })), [{ tool: 'edit_file', input: { path: '/abs/x.ts' }, edits: [{ search: 'a', replace: 'b', all: false }] }]);
    });

    it('judges an edit with an empty oldString as the write it is (OpenCode writes newString as the whole file)', () => {
      assert.deepEqual(calls(map('edit', { filePath: 'new.ts', oldString: '', newString: 'all of it' })), [{ tool: 'write_file', input: { path: join(root, 'new.ts'), content: 'all of it' } }]);
    });

    it('judges multiedit as one edit with every search/replace, and refuses one with an empty oldString', () => {
      assert.deepEqual(calls(map('multiedit', { filePath: 'a.ts', edits: [{ oldString: 'a', newString: 'b' }, { oldString: 'c', newString: 'd', replaceAll: true }] })), [
        { tool: 'edit_file', input: { path: join(root, 'a.ts') }, edits: [{ search: 'a', replace: 'b', all: false }, { search: 'c', replace: 'd', all: true }] },
      ]);
      reason(map('multiedit', { filePath: 'a.ts', edits: [{ oldString: '', newString: 'b' }] }));
    });

    it('judges each file an apply_patch (or the older patch) touches, against the project directory: an edit per update, a write per addition', () => {
      const expected = [
        { tool: 'edit_file', input: { path: join(root, 'a.txt') }, edits: [{ search: 'hello', replace: 'patched', all: false }] },
        { tool: 'write_file', input: { path: join(root, 'sub2/new.txt'), content: 'new\n' } },
      ];
      assert.deepEqual(calls(map('apply_patch', parsedInput('pre-apply-patch'))), expected);
      assert.deepEqual(calls(map('patch', parsedInput('pre-apply-patch'))), expected);
    });

    it('refuses what it cannot check in a patch, with what to do instead: a deletion, a move, lines added without context, text that is not a patch', () => {
      assert.match(reason(map('apply_patch', patch('*** Delete File: a.txt'))), /deletes a\.txt.*delete the file with bash/);
      assert.match(reason(map('apply_patch', patch('*** Update File: a.txt', '*** Move to: b.txt', '@@', '-a', '+b'))), /moves a\.txt to b\.txt/);
      assert.match(reason(map('apply_patch', patch('*** Update File: a.txt', '@@', '+only added'))), /without any line it removes or keeps/);
      assert.match(reason(map('apply_patch', { patchText: 'rm -rf /' })), /cannot read this apply_patch input/);
      assert.match(reason(map('apply_patch', {})), /has no patch text/);
    });

    it('judges bash where it runs: workdir resolved against the project directory, else the project directory', () => {
      assert.deepEqual(calls(map('bash', parsedInput('pre-bash-workdir'))), [{ tool: 'run_command', input: { command: 'ls', cwd: join(root, 'sub') } }]);
      assert.deepEqual(calls(map('bash', { command: 'ls', description: 'list' })), [{ tool: 'run_command', input: { command: 'ls', cwd: root } }]);
      assert.deepEqual(calls(map('bash', { command: 'ls', workdir: '/elsewhere' })), [{ tool: 'run_command', input: { command: 'ls', cwd: '/elsewhere' } }]);
    });

    it('judges read as a read of its file', () => {
      assert.deepEqual(calls(map('read', parsedInput('pre-read'))), [{ tool: 'read_file', input: { path: join(root, 'a.txt') } }]);
    });

    it('passes the tools that change nothing: searches, todos, web fetches, skills, subagents (whose own calls come through the plugin)', () => {
      for (const tool of PASSED) assert.deepEqual(map(tool, {}), { kind: 'passthrough' }, tool);
    });

    it('refuses a call missing what it needs, saying so', () => {
      assert.match(reason(map('write', { filePath: 'a.ts' })), /OpenCode's write call has no filePath and content/);
      assert.match(reason(map('edit', { filePath: 'a.ts', oldString: 'a' })), /has no filePath, oldString and newString/);
      assert.match(reason(map('bash', {})), /has no command/);
      assert.match(reason(map('read', {})), /has no filePath/);
    });

    it("refuses code mode's execute and any tool it does not know; another server's `<server>_<tool>` goes to the plan's mcp_tools with every reading; the governor's own MCP tools pass", () => {
      assert.match(reason(map('execute', { code: 'x' })), /runs other MCP servers' tools/);
      const other = map('github_create_issue', {});
      assert.match(reason(other), /'github_create_issue' is a tool of another MCP server \(or another plugin\).*unless the plan's mcp_tools allows it/);
      assert.deepEqual(other.kind === 'refused' ? other.foreign : undefined, { server: 'github', tool: 'create_issue', ambiguous: { separator: '_', others: [{ server: 'github_create', tool: 'issue' }] } });
      const single = map('db_query', {});
      assert.deepEqual(single.kind === 'refused' ? single.foreign : undefined, { server: 'db', tool: 'query' }, 'one "_": one reading');
      assert.match(reason(map('deploy', {})), /does not know OpenCode's tool 'deploy'/);
      assert.deepEqual(map('intent-governor_write_file', {}), { kind: 'passthrough' });
      assert.match(reason(map('intent_governor_write_file', {})), /is a tool of another MCP server/, 'only the exact server name passes');
    });
  });

  describe('render: what the plugin reads back', () => {
    const pre = () => parsed('pre-write');
    it('an allow is {decision: allow}, with the rewritten args when a user hook changed them', () => {
      assert.deepEqual(json(opencodeDialect.render(pre(), { decision: 'allow' }).stdout), { decision: 'allow' });
      const args = { filePath: 'src/auth/other.ts', content: 'x' };
      assert.deepEqual(json(opencodeDialect.render(pre(), { decision: 'allow', updatedInput: args, systemMessage: 'for you' }).stdout), { decision: 'allow', args, systemMessage: 'for you' });
    });

    it('a deny carries the reason the plugin throws with', () => {
      const reply = opencodeDialect.render(pre(), { decision: 'deny', reason: '[SCOPE_VIOLATION] nope' });
      assert.equal(reply.exitCode, 0);
      assert.deepEqual(json(reply.stdout), { decision: 'deny', reason: '[SCOPE_VIOLATION] nope' });
    });

    it('an ask or a stop is a deny that says why and what to do: a plugin cannot ask a person', () => {
      const ask = json(opencodeDialect.render(pre(), { decision: 'ask', reason: 'Intent Governor asks a human: Destructive command' }).stdout);
      assert.equal(ask.decision, 'deny');
      assert.match(String(ask.reason), /^Intent Governor asks a human: Destructive command\. OpenCode cannot ask a person from a plugin, so the call is refused: ask the person to approve it in VS Code/);
      assert.deepEqual(json(opencodeDialect.render(pre(), { decision: 'allow', stop: 'budget spent' }).stdout), { decision: 'deny', reason: 'budget spent' });
    });

    it("after a tool ran, the governor's notes and a post hook's reason are context appended to what the model reads", () => {
      const post = parsed('post-write');
      assert.deepEqual(json(opencodeDialect.render(post, { decision: 'allow', context: 'traced' }).stdout), { decision: 'allow', context: 'traced' });
      assert.deepEqual(json(opencodeDialect.render(post, { decision: 'deny', reason: 'undo it' }).stdout), { decision: 'allow', context: 'undo it' });
    });

    it('a failure exits 2 with a deny on stdout and the reason on stderr: the plugin blocks either way', () => {
      const reply = opencodeDialect.renderFailure('timed out');
      assert.equal(reply.exitCode, 2);
      assert.deepEqual(json(reply.stdout), { decision: 'deny', reason: 'Intent Governor blocked this call: timed out' });
      assert.equal(reply.stderr, 'Intent Governor blocked this call: timed out\n');
    });
  });

  it("protects OpenCode's project config from agents: the plugin folder (ours is there) and opencode.json", () => {
    assert.ok(protectedPatternFor('.opencode/plugins/intent-governor.js'));
    assert.ok(protectedPatternFor('opencode.json'));
    assert.ok(protectedPatternFor('sub/opencode.jsonc'));
  });

  function parsedInput(fixture: string): Record<string, unknown> {
    const event = parsed(fixture);
    assert.equal(event.kind, 'tool');
    return event.kind === 'tool' ? event.toolInput : {};
  }
});
