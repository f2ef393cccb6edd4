import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { commandHash, specHash } from '../../../../src/core/userHooks/hookApprovals';
import { parseHooksConfig, type HooksConfigParse } from '../../../../src/core/userHooks/hooksConfig';
import type { HookSource, HookSpec } from '../../../../src/core/userHooks/hookSpec';

const PROJECT: HookSource = { layer: 'project', file: '.orchestration/hooks.json' };
const CLAUDE: HookSource = { layer: 'claude', file: '.claude/settings.json' };
const OUR_BRIDGE = 'node "/opt/ig/dist/cli.js" hook claude --timeout-ms 110000';

function config(event: string, hook: Record<string, unknown>, matcher?: string): unknown {
  return { hooks: { [event]: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [hook] }] } };
}

function hooksOf(parsed: HooksConfigParse): HookSpec[] {
  if (!parsed.ok) assert.fail(parsed.message);
  return parsed.hooks;
}

function errorOf(value: unknown, source = PROJECT, strict = true): string {
  const parsed = parseHooksConfig(value, source, { strict });
  assert.ok(!parsed.ok, 'expected an error');
  return parsed.message;
}

describe("parseHooksConfig: one file's hooks in Claude Code's shape", () => {
  it('reads a command hook into a full HookSpec: id, name, seconds to ms, defaults, the command hash', () => {
    const [spec] = hooksOf(parseHooksConfig(config('PreToolUse', { type: 'command', command: './scripts/check.sh', timeout: 30 }, 'Bash'), PROJECT, { strict: true }));
    assert.deepEqual(spec, {
      id: '.orchestration/hooks.json#PreToolUse[0].hooks[0]',
      name: './scripts/check.sh',
      event: 'PreToolUse',
      matcher: 'Bash',
      action: { type: 'command', command: './scripts/check.sh' },
      timeoutMs: 30_000,
      async: false,
      asyncRewake: false,
      once: false,
      onFailure: 'block',
      source: PROJECT,
      approvalHash: commandHash('./scripts/check.sh'),
      identity: spec.identity,
    });
  });

  it('keeps the approval hash of a shell command equal to the one hooks.yaml used, so approvals still hold', () => {
    const [spec] = hooksOf(parseHooksConfig(config('PreToolUse', { type: 'command', command: 'exit 0' }), PROJECT, { strict: true }));
    assert.equal(spec.approvalHash, `sha256:${createHash('sha256').update('exit 0').digest('hex')}`);
  });

  it('reads every field: exec form, http with headers, prompt with model, modes, status, onFailure, if, name', () => {
    const value = {
      hooks: {
        PostToolUse: [
          {
            matcher: 'Edit|Write',
            hooks: [
              { type: 'command', args: ['node', 'scripts/format.js'], async: true, statusMessage: 'Formatting…', once: true },
              { type: 'http', url: 'https://policy.example/hook', headers: { Authorization: 'Bearer $TOKEN' }, allowedEnvVars: ['TOKEN'], timeout: 5, onFailure: 'block' },
              { type: 'prompt', prompt: 'Is this change safe? $ARGUMENTS', model: 'gpt-4o', if: 'Write(src/**)', name: 'reviewer', asyncRewake: true },
            ],
          },
        ],
        SessionStart: [{ hooks: [{ type: 'command', command: 'echo hi' }] }],
      },
    };
    const [format, http, prompt, start] = hooksOf(parseHooksConfig(value, PROJECT, { strict: true }));
    assert.deepEqual(format.action, { type: 'command', args: ['node', 'scripts/format.js'] });
    assert.equal(format.name, 'node scripts/format.js');
    assert.equal(format.async, true);
    assert.equal(format.once, true);
    assert.equal(format.statusMessage, 'Formatting…');
    assert.equal(format.onFailure, 'continue'); // an observation event
    assert.equal(format.timeoutMs, 60_000);
    assert.equal(format.approvalHash, specHash({ type: 'command', args: ['node', 'scripts/format.js'] }));
    assert.deepEqual(http.action, { type: 'http', url: 'https://policy.example/hook', headers: { Authorization: 'Bearer $TOKEN' }, allowedEnvVars: ['TOKEN'] });
    assert.equal(http.timeoutMs, 5_000);
    assert.equal(http.onFailure, 'block');
    assert.equal(http.id, '.orchestration/hooks.json#PostToolUse[0].hooks[1]');
    assert.deepEqual(prompt.action, { type: 'prompt', prompt: 'Is this change safe? $ARGUMENTS', model: 'gpt-4o' });
    assert.equal(prompt.if, 'Write(src/**)');
    assert.equal(prompt.name, 'reviewer');
    assert.equal(prompt.asyncRewake, true);
    assert.equal(start.event, 'SessionStart');
    assert.equal(start.matcher, '');
    assert.equal(start.id, '.orchestration/hooks.json#SessionStart[0].hooks[0]');
  });

  it('hashes a non-shell action by its canonical JSON: key order does not matter, any change does', () => {
    const a = hooksOf(parseHooksConfig(config('PreToolUse', { type: 'http', url: 'http://127.0.0.1:9/h', headers: { A: '1', B: '2' } }), PROJECT, { strict: true }))[0];
    const b = hooksOf(parseHooksConfig(config('PreToolUse', { headers: { B: '2', A: '1' }, url: 'http://127.0.0.1:9/h', type: 'http' }), PROJECT, { strict: true }))[0];
    const c = hooksOf(parseHooksConfig(config('PreToolUse', { type: 'http', url: 'http://127.0.0.1:9/h', headers: { A: '1', B: '3' } }), PROJECT, { strict: true }))[0];
    assert.equal(a.approvalHash, b.approvalHash);
    assert.notEqual(a.approvalHash, c.approvalHash);
    assert.match(a.approvalHash, /^sha256:[0-9a-f]{64}$/);
  });

  it('shortens a long command to about 60 characters for its name', () => {
    const command = `echo ${'x'.repeat(100)}`;
    const [spec] = hooksOf(parseHooksConfig(config('PreToolUse', { type: 'command', command }), PROJECT, { strict: true }));
    assert.equal(spec.name.length, 60);
    assert.ok(spec.name.endsWith('…'));
  });

  it('reads the permission-rule shorthand Bash(git:*) as matcher Bash plus an if, with a note', () => {
    const parsed = parseHooksConfig(config('PreToolUse', { type: 'command', command: 'exit 0' }, 'Bash(git:*)'), PROJECT, { strict: true });
    const [spec] = hooksOf(parsed);
    assert.equal(spec.matcher, 'Bash');
    assert.equal(spec.if, 'Bash(git:*)');
    assert.deepEqual(parsed.ok && parsed.notes, [
      `.orchestration/hooks.json: hooks.PreToolUse[0].matcher 'Bash(git:*)' is a permission rule: read as "matcher": "Bash" with "if": "Bash(git:*)" (write it that way to silence this note)`,
    ]);
  });

  it('a regex with a group stays a regex; a rule that cannot be a condition is refused, not left to never match', () => {
    const [spec] = hooksOf(parseHooksConfig(config('PreToolUse', { type: 'command', command: 'x' }, 'mcp__(github|gitlab)'), PROJECT, { strict: true }));
    assert.equal(spec.matcher, 'mcp__(github|gitlab)');
    assert.equal(spec.if, undefined);
    assert.equal(
      errorOf(config('PreToolUse', { type: 'command', command: 'x' }, 'Edit(~/.bashrc)')),
      `.orchestration/hooks.json: hooks.PreToolUse[0].matcher: "if" 'Edit(~/.bashrc)': paths in "if" are relative to the workspace root; write a workspace pattern such as "Edit(src/**)"`,
    );
  });

  it('a file without hooks, or with other keys only, has no hooks', () => {
    assert.deepEqual(parseHooksConfig({}, PROJECT, { strict: true }), { ok: true, hooks: [], notes: [], warnings: [] });
    assert.deepEqual(parseHooksConfig({ permissions: { allow: ['Bash(ls)'] }, env: {} }, CLAUDE, { strict: false }), { ok: true, hooks: [], notes: [], warnings: [] });
  });

  describe('what it refuses, naming the file, the place in it and what to write instead', () => {
    const where = '.orchestration/hooks.json: hooks.PreToolUse[0].hooks[0]';
    const table: [what: string, value: unknown, message: string][] = [
      ['not an object', [], `.orchestration/hooks.json: the file must be a JSON object such as {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]}}`],
      ['hooks as a list (the old format)', { hooks: [{ command: 'x' }] }, `.orchestration/hooks.json: hooks must be an object of events, e.g. {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]}}`],
      ['an event that is not a list', { hooks: { PreToolUse: {} } }, `.orchestration/hooks.json: hooks.PreToolUse must be a list of matcher groups, e.g. [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]`],
      ['a group that is not an object', { hooks: { PreToolUse: ['Bash'] } }, `.orchestration/hooks.json: hooks.PreToolUse[0] must be an object with "matcher" and "hooks"`],
      ['a matcher that is not a string', { hooks: { PreToolUse: [{ matcher: 3, hooks: [] }] } }, `.orchestration/hooks.json: hooks.PreToolUse[0].matcher must be a string: tool names (Edit|Write) or a regular expression; leave it out for every tool`],
      ['an invalid regex matcher', config('PreToolUse', { type: 'command', command: 'x' }, 'Write|Edit(*.ts)'), `.orchestration/hooks.json: hooks.PreToolUse[0]: matcher 'Write|Edit(*.ts)' is not a valid regular expression (Invalid regular expression: /Write|Edit(*.ts)/: Nothing to repeat); write tool names separated by | (Edit|Write) or a JavaScript regular expression (mcp__github__.*)`],
      ['hooks that are not a list', { hooks: { PreToolUse: [{ matcher: 'Bash' }] } }, `.orchestration/hooks.json: hooks.PreToolUse[0].hooks must be a list of hooks, e.g. [{"type": "command", "command": "./check.sh"}]`],
      ['a hook without a type', config('PreToolUse', { command: 'x' }), `${where} needs a "type": "command", "http", "prompt", "agent" or "mcp_tool"`],
      ['an unknown type', config('PreToolUse', { type: 'subagent', prompt: 'x' }), `${where}.type 'subagent' is not a hook type Intent Governor runs; use "command", "http", "prompt", "agent" or "mcp_tool"`],
      ['an mcp_tool hook without a server', config('PreToolUse', { type: 'mcp_tool', tool: 'x' }), `${where}.server must be a non-empty string: the MCP server's name in Claude Code's config`],
      ['an mcp_tool hook whose input is not an object', config('PreToolUse', { type: 'mcp_tool', server: 'memory', tool: 'x', input: 'path' }), `${where}.input must be an object of the tool's arguments, e.g. "input": {"path": "\${tool_input.file_path}"}`],
      ['both command and args', config('PreToolUse', { type: 'command', command: 'x', args: ['x'] }), `${where} has both "command" and "args"; keep one: "command" (a shell string) or "args" (a program and its arguments, no shell)`],
      ['neither command nor args', config('PreToolUse', { type: 'command' }), `${where} needs "command" (a shell string) or "args" (a program and its arguments, no shell)`],
      ['an empty command', config('PreToolUse', { type: 'command', command: ' ' }), `${where}.command must be a non-empty shell command, e.g. "command": "./scripts/check.sh"`],
      ['empty args', config('PreToolUse', { type: 'command', args: [] }), `${where}.args must be a non-empty list of strings, the program first, e.g. "args": ["node", "scripts/check.js"]`],
      ['args that are not strings', config('PreToolUse', { type: 'command', args: ['node', 3] }), `${where}.args must be a non-empty list of strings, the program first, e.g. "args": ["node", "scripts/check.js"]`],
      ['an http hook without url', config('PreToolUse', { type: 'http' }), `${where}.url must be an http: or https: URL, e.g. "url": "http://127.0.0.1:8080/hook"`],
      ['a url that is not a URL', config('PreToolUse', { type: 'http', url: 'localhost:8080' }), `${where}.url 'localhost:8080' is not http: or https:; write an http: or https: URL, e.g. "url": "http://127.0.0.1:8080/hook"`],
      ['a relative url', config('PreToolUse', { type: 'http', url: '/hook' }), `${where}.url '/hook' is not a URL; write an http: or https: URL, e.g. "url": "http://127.0.0.1:8080/hook"`],
      ['a file: url', config('PreToolUse', { type: 'http', url: 'file:///etc/passwd' }), `${where}.url 'file:///etc/passwd' is not http: or https:; write an http: or https: URL, e.g. "url": "http://127.0.0.1:8080/hook"`],
      ['headers that are not strings', config('PreToolUse', { type: 'http', url: 'http://x/', headers: { A: 1 } }), `${where}.headers must map header names to strings, e.g. "headers": {"Authorization": "Bearer $TOKEN"}`],
      ['allowedEnvVars that are not names', config('PreToolUse', { type: 'http', url: 'http://x/', allowedEnvVars: ['A B'] }), `${where}.allowedEnvVars must be a list of environment variable names, e.g. "allowedEnvVars": ["TOKEN"]`],
      ['a prompt hook without prompt', config('PreToolUse', { type: 'prompt' }), `${where}.prompt must be a non-empty string; $ARGUMENTS in it is replaced by the hook input JSON`],
      ['a timeout in milliseconds', config('PreToolUse', { type: 'command', command: 'x', timeout: 5000 }), `${where}.timeout must be a whole number of seconds from 1 to 600 (Claude Code's unit), e.g. "timeout": 30`],
      ['a timeout of zero', config('PreToolUse', { type: 'command', command: 'x', timeout: 0 }), `${where}.timeout must be a whole number of seconds from 1 to 600 (Claude Code's unit), e.g. "timeout": 30`],
      ['a fractional timeout', config('PreToolUse', { type: 'command', command: 'x', timeout: 1.5 }), `${where}.timeout must be a whole number of seconds from 1 to 600 (Claude Code's unit), e.g. "timeout": 30`],
      ['an unknown onFailure', config('PreToolUse', { type: 'command', command: 'x', onFailure: 'ignore' }), `${where}.onFailure must be "block" (a failing hook refuses the call) or "continue" (its failure is logged)`],
      ['a name that is not a string', config('PreToolUse', { type: 'command', command: 'x', name: 1 }), `${where}.name must be a string`],
      ['an if that is not a rule', config('PreToolUse', { type: 'command', command: 'x', if: 'git push' }), `${where}: "if" 'git push' is not a permission rule; write Tool or Tool(pattern), e.g. "Bash(git push:*)" or "Write(src/**)"`],
      ['a rule matcher whose hooks have their own if', config('PreToolUse', { type: 'command', command: 'x', if: 'Bash(npm:*)' }, 'Bash(git:*)'), `.orchestration/hooks.json: hooks.PreToolUse[0].matcher 'Bash(git:*)' is a permission rule and its hooks have their own "if"; write "matcher": "Bash" and put both conditions in one "if" per hook`],
    ];
    for (const [what, value, message] of table) {
      it(what, () => assert.equal(errorOf(value), message));
    }

    it('an unknown event, or a mistake in an observation entry, is a warning for that entry only; a decision entry stays fatal', () => {
      const parsed = parseHooksConfig({ hooks: { pre: [], PostToolUse: [{ hooks: [{ type: 'command', command: 'x', async: 'yes' }] }], SessionStart: [{ hooks: [{ type: 'command', command: 'x', if: 'Bash' }, { type: 'command', command: 'ok' }] }] } }, PROJECT, { strict: true });
      assert.ok(parsed.ok);
      assert.deepEqual(parsed.hooks.map((h) => h.name), ['ok']);
      assert.deepEqual(parsed.warnings, [
        '.orchestration/hooks.json: hooks.pre is not an event Claude Code or Intent Governor has; its hooks are skipped, the rest of the file holds',
        '.orchestration/hooks.json: hooks.PostToolUse[0].hooks[0].async must be true or false; skipped (a PostToolUse hook decides nothing, so the rest of the file holds)',
        '.orchestration/hooks.json: hooks.SessionStart[0].hooks[0].if only applies to tool events (PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, PermissionDenied); remove it, or move the hook to one of them; skipped (a SessionStart hook decides nothing, so the rest of the file holds)',
      ]);
      assert.match(errorOf(config('PreToolUse', { type: 'command', command: 'x', async: 'yes' })), /hooks\.PreToolUse\[0\]\.hooks\[0\]\.async must be true or false$/);
    });

    it('async or asyncRewake on a decision event is kept and runs in the background, with a note that it cannot block', () => {
      const parsed = parseHooksConfig(config('PreToolUse', { type: 'command', command: 'log.sh', async: true }, 'Bash'), PROJECT, { strict: true });
      assert.deepEqual(hooksOf(parsed).map((h) => [h.name, h.async]), [['log.sh', true]]);
      assert.deepEqual(parsed.ok && parsed.notes, ['.orchestration/hooks.json: hooks.PreToolUse[0].hooks[0] has "async": true on PreToolUse: it runs in the background and cannot block the call (remove it for a hook that decides)']);
    });

    it('names the user file as it was given', () => {
      const user: HookSource = { layer: 'user', file: '~/.intent-governor/hooks.json' };
      assert.match(errorOf(config('PreToolUse', { type: 'command' }), user), /^~\/\.intent-governor\/hooks\.json: hooks\.PreToolUse\[0\]\.hooks\[0\] needs/);
    });
  });

  describe("Claude Code's own settings files (not strict)", () => {
    const parseClaude = (value: unknown) => parseHooksConfig(value, CLAUDE, { strict: false });

    it('skips hook types it does not know, with a note, and keeps the rest; an agent hook loads as a prompt hook, with a note', () => {
      const parsed = parseClaude({
        permissions: { allow: ['Bash(npm test)'] },
        hooks: {
          Setup: [{ hooks: [{ type: 'command', command: 'setup.sh' }] }],
          ConfigChange: [{ hooks: [{ type: 'command', command: 'x' }] }],
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'agent', prompt: 'review' }, { type: 'command', command: './guard.sh' }, { type: 'subagent', prompt: 'later' }] }],
        },
      });
      const hooks = hooksOf(parsed);
      assert.deepEqual(hooks.map((h) => [h.id, h.name, h.source.layer]), [
        ['.claude/settings.json#Setup[0].hooks[0]', 'setup.sh', 'claude'],
        ['.claude/settings.json#ConfigChange[0].hooks[0]', 'x', 'claude'],
        ['.claude/settings.json#PreToolUse[0].hooks[0]', 'review', 'claude'],
        ['.claude/settings.json#PreToolUse[0].hooks[1]', './guard.sh', 'claude'],
      ]);
      assert.deepEqual(hooks[2].action, { type: 'prompt', prompt: 'review', agent: true });
      assert.deepEqual(parsed.ok && parsed.notes, [
        '.claude/settings.json: hooks.PreToolUse[0].hooks[0] is an agent hook: runs as a prompt hook here: no tools (one model judgement on its prompt and the hook input, answering {"ok": …, "reason": …})',
        ".claude/settings.json: hooks.PreToolUse[0].hooks[2] is a hook of type 'subagent', which only Claude Code runs; skipped here",
      ]);
    });

    it("a user's mcp_tool hook: skipped with a note where it decides nothing, kept where it decides (its onFailure then decides)", () => {
      const parsed = parseClaude({
        hooks: {
          PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'mcp_tool', server: 'memory', tool: 'remember', input: { path: '${tool_input.file_path}' } }] }],
          PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'mcp_tool', server: 'semgrep', tool: 'scan', input: { path: '${tool_input.file_path}' } }] }],
        },
      });
      assert.deepEqual(hooksOf(parsed).map((h) => [h.event, h.action, h.onFailure]), [['PreToolUse', { type: 'mcp_tool', server: 'semgrep', tool: 'scan', input: { path: '${tool_input.file_path}' } }, 'block']]);
      assert.deepEqual(parsed.ok && parsed.notes, [
        '.claude/settings.json: hooks.PostToolUse[0].hooks[0] calls the MCP tool memory/remember: mcp_tool hooks run only in Claude Code; on PostToolUse, which decides nothing, it is skipped here',
        '.claude/settings.json: hooks.PreToolUse[0].hooks[0] calls the MCP tool semgrep/scan: mcp_tool hooks run only in Claude Code; on PreToolUse it never runs here, and its onFailure ("block") refuses what it matches',
      ]);
    });

    it('skips our own bridge entries and our mcp_tool hooks silently (running them from the governor would loop)', () => {
      const parsed = parseClaude({
        hooks: {
          PreToolUse: [
            { matcher: 'Write|Edit|MultiEdit|NotebookEdit|Bash|Read', hooks: [{ type: 'command', command: OUR_BRIDGE, timeout: 120 }] },
            { matcher: '*', hooks: [{ type: 'mcp_tool', server: 'intent-governor', tool: 'decide' }] },
            { matcher: 'Bash', hooks: [{ type: 'command', command: './team-guard.sh' }] },
          ],
          SessionEnd: [{ hooks: [{ type: 'command', command: OUR_BRIDGE }] }],
        },
      });
      assert.deepEqual(hooksOf(parsed).map((h) => h.name), ['./team-guard.sh']);
      assert.deepEqual(parsed.ok && parsed.notes, []);
    });

    it('in our own files, the same bridge command is not special; agent and mcp_tool hooks load as in Claude Code\'s files', () => {
      assert.equal(hooksOf(parseHooksConfig(config('PreToolUse', { type: 'command', command: OUR_BRIDGE }), PROJECT, { strict: true })).length, 1);
      const strict = parseHooksConfig({ hooks: { PreToolUse: [{ hooks: [{ type: 'agent', prompt: 'review' }, { type: 'mcp_tool', server: 'semgrep', tool: 'scan' }] }] } }, PROJECT, { strict: true });
      assert.deepEqual(hooksOf(strict).map((h) => h.action.type), ['prompt', 'mcp_tool']);
    });

    it('accepts what Claude Code accepts: any positive timeout (capped at 600 s with a note)', () => {
      const parsed = parseClaude({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'a', timeout: 1.5 }, { type: 'command', command: 'b', timeout: 900 }] }] } });
      assert.deepEqual(hooksOf(parsed).map((h) => h.timeoutMs), [1_500, 600_000]);
      assert.deepEqual(parsed.ok && parsed.notes, ['.claude/settings.json: hooks.PreToolUse[0].hooks[1].timeout is 900 seconds; Intent Governor stops a hook after 600']);
      assert.match(errorOf({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'a', timeout: -1 }] }] } }, CLAUDE, false), /timeout must be a whole number of seconds/);
    });

    it('an async hook on a decision event runs in the background here too, with a note', () => {
      const parsed = parseClaude(config('PreToolUse', { type: 'command', command: 'log.sh', async: true }, 'Bash'));
      assert.deepEqual(hooksOf(parsed).map((h) => h.async), [true]);
      assert.equal(parsed.ok && parsed.notes.length, 1);
    });

    it('an if on an event without a tool is dropped with a note: the hook runs whenever its event fires', () => {
      const parsed = parseClaude(config('Stop', { type: 'command', command: 'x', if: 'Bash' }));
      const [spec] = hooksOf(parsed);
      assert.equal(spec.if, undefined);
      assert.equal(parsed.ok && parsed.notes.length, 1);
    });

    it('a malformed hook is still an error (the runner fails closed on decision events)', () => {
      assert.equal(errorOf(config('PreToolUse', { type: 'command' }), CLAUDE, false), '.claude/settings.json: hooks.PreToolUse[0].hooks[0] needs "command" (a shell string) or "args" (a program and its arguments, no shell)');
    });
  });
});
