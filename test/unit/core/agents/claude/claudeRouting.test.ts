import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeRouting, EVERY_TOOL, parseRouting, postToolMatcher, preToolMatcher, routes, routingGaps, routingText } from '../../../../../src/core/agents/claude/claudeRouting';
import { CLAUDE_READ_ONLY_TOOLS } from '../../../../../src/core/agents/claude/claudeDialect';
import { DeclaredHooksCache, declaredHooks } from '../../../../../src/core/userHooks/declaredHooks';
import { runGovernor } from '../../../../support/runGovernor';
import { SAMPLE_INTENTS } from '../../../../support/governorHarness';

const none = { hooks: [], unreadable: false };

describe("Claude Code's routing: which tool events the resident governor's hooks send", () => {
  it('without user hooks: no read-only tool and none of our MCP tools before it runs, only Read after', () => {
    const routing = claudeRouting(none);
    assert.deepEqual(routing.preSkips, [...CLAUDE_READ_ONLY_TOOLS]);
    assert.equal(routing.preSkipsOwnTools, true);
    assert.deepEqual(routing.posts, ['Read']);
    for (const tool of ['Write', 'Edit', 'Bash', 'Read', 'NotebookEdit', 'mcp__github__create_issue']) assert.ok(routes(routing, 'PreToolUse', tool), tool);
    for (const tool of ['Agent', 'ToolSearch', 'mcp__intent-governor__write_file']) assert.ok(!routes(routing, 'PreToolUse', tool), tool);
    assert.ok(!routes(routing, 'PostToolUse', 'Write') && routes(routing, 'PostToolUse', 'Read'));
    assert.equal(postToolMatcher(routing), 'Read');
  });

  it('the PreToolUse matcher is a regular expression that fails only for the skipped names, never for a name that merely starts or ends like one', () => {
    const matcher = new RegExp(preToolMatcher({ preSkips: ['Agent', 'Skill'], preSkipsOwnTools: true }));
    for (const name of ['Agent', 'Skill', 'mcp__intent-governor__read_file']) assert.ok(!matcher.test(name), name);
    for (const name of ['Agents', 'SubAgent', 'Skill2', 'xSkill', 'Agent\nx', 'mcp__intent-governorX__read_file', 'mcp__other__intent-governor__x', 'Write']) assert.ok(matcher.test(name), JSON.stringify(name));
    assert.equal(preToolMatcher(EVERY_TOOL), '*');
    assert.equal(preToolMatcher({ preSkips: [], preSkipsOwnTools: true }), '^(?!mcp__intent-governor__)');
  });

  it("widens for the user's hooks: exact names, a regular expression, hooks for our own MCP tools", () => {
    const pre = (matcher: string) => claudeRouting({ hooks: [{ event: 'PreToolUse', matcher }], unreadable: false });
    assert.ok(!pre('ToolSearch|Bash').preSkips.includes('ToolSearch'));
    assert.equal(pre('ToolSearch|Bash').preSkipsOwnTools, true);
    assert.ok(!pre('^Web').preSkips.includes('WebFetch') && pre('^Web').preSkips.includes('Agent'), 'a regular expression is tested against each read-only tool');
    assert.equal(pre('^Web').preSkipsOwnTools, false, 'a regular expression may match one of our MCP tools');
    assert.equal(pre('mcp__intent-governor__write_file').preSkipsOwnTools, false);
    const post = (matcher: string) => claudeRouting({ hooks: [{ event: 'PostToolUse', matcher }], unreadable: false }).posts;
    assert.deepEqual(post('Bash'), ['Read', 'Bash']);
    assert.deepEqual(post('run_command'), ['Read', 'Bash']);
    assert.deepEqual(post('Agent|mcp__intent-governor__write_file'), ['Read', 'Agent', 'mcp__intent-governor__write_file']);
    assert.equal(postToolMatcher({ preSkips: [], preSkipsOwnTools: false, posts: ['Read', 'mcp__intent-governor__write_file'] }), '^(?:Read|mcp__intent-governor__write_file)$');
    assert.equal(post('.*'), undefined);
  });

  it('what the hooks carry is read back; an install without it routes every tool; the gaps between installed and needed are named', () => {
    const narrow = claudeRouting(none);
    assert.deepEqual(parseRouting(routingText(narrow)), narrow);
    assert.deepEqual(parseRouting(undefined), EVERY_TOOL);
    assert.deepEqual(parseRouting('{"preSkips": "x"}'), EVERY_TOOL);
    assert.deepEqual(routingGaps(EVERY_TOOL, narrow), [], 'every tool is sent: nothing can be missed');
    assert.deepEqual(routingGaps(narrow, narrow), []);
    const needed = claudeRouting({ hooks: [{ event: 'PreToolUse', matcher: 'ToolSearch' }, { event: 'PostToolUse', matcher: 'Write' }], unreadable: false });
    assert.deepEqual(routingGaps(narrow, needed), ['PreToolUse of ToolSearch', 'PostToolUse of Write']);
    assert.deepEqual(routingGaps(narrow, claudeRouting({ hooks: [], unreadable: true })), [`PreToolUse of ${[...CLAUDE_READ_ONLY_TOOLS].join(', ')}`, "PreToolUse of the governor's own MCP tools", 'PostToolUse of every tool']);
  });

  it('the declared hooks come from the files the governor runs for Claude Code (not Claude’s own settings), read again when one changes', () => {
    const root = mkdtempSync(join(tmpdir(), 'ig-routing-'));
    try {
      const home = join(root, 'home');
      mkdirSync(join(root, '.orchestration'), { recursive: true });
      mkdirSync(join(root, '.claude'), { recursive: true });
      mkdirSync(home);
      writeFileSync(join(root, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'true' }] }] } }));
      const cache = new DeclaredHooksCache(root, home, 'claude-code');
      assert.deepEqual(cache.get(), none, "Claude Code runs its own settings' hooks itself");
      writeFileSync(join(home, 'hooks.json'), JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'true' }] }] } }));
      assert.deepEqual(cache.get(), { hooks: [{ event: 'PostToolUse', matcher: 'Write' }], unreadable: false });
      writeFileSync(join(root, '.orchestration', 'hooks.json'), '{ not json');
      assert.equal(cache.get().unreadable, true);
      assert.deepEqual(declaredHooks(root, home, 'claude-code'), cache.get());
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("governor hooks install reads the user's hooks and says what Claude Code will not send", async function () {
    this.timeout(30_000);
    const temp = mkdtempSync(join(tmpdir(), 'ig-routing-cli-'));
    try {
      const ws = join(temp, 'ws');
      const governorHome = join(temp, 'governor-home');
      mkdirSync(join(ws, '.orchestration'), { recursive: true });
      mkdirSync(governorHome);
      writeFileSync(join(ws, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
      const install = () => runGovernor(['hooks', 'install', '--agent', 'claude', '--claude-hooks', 'mcp_tool', '--workspace', ws], { anchorDir: join(temp, 'anchors'), home: join(temp, 'home'), env: { INTENT_GOVERNOR_HOME: governorHome } });
      const settings = () => JSON.parse(readFileSync(join(ws, '.claude', 'settings.local.json'), 'utf8')).hooks;
      const first = await install();
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /settings\.local\.json written \(PreToolUse skips \d+ read-only tools and the governor's own MCP tools; PostToolUse only for Read .*install again after you change your hooks\)/);
      assert.equal(settings().PostToolUse[0].matcher, 'Read');
      writeFileSync(join(governorHome, 'hooks.json'), JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'true' }] }] } }));
      assert.equal((await install()).code, 0);
      assert.equal(settings().PostToolUse[0].matcher, 'Read|Edit|MultiEdit');
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
