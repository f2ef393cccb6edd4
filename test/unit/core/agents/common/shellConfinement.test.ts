import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { claudeDialect } from '../../../../../src/core/agents/claude/claudeDialect';
import { geminiDialect } from '../../../../../src/core/agents/gemini/geminiDialect';
import type { HookEvent } from '../../../../../src/core/agents/common/hookDialect';
import { AGENTS } from '../../../../../src/core/agents/registry';
import { confinedCommandLine, shellQuote } from '../../../../../src/core/sandbox/confinedCommandLine';

const LINE = "TMPDIR=/tmp/governor-shell-abcdef /usr/bin/bwrap -- /bin/sh -c 'echo ok'";

const pre = (toolName: string, toolInput: Record<string, unknown>, eventName = 'PreToolUse'): HookEvent => ({ kind: 'tool', phase: 'pre', eventName, sessionId: 's', toolName, toolInput });

describe("agents' own shells: the confined rewrite in each dialect", () => {
  it('every adapter says how its shell runs, and says sandboxed exactly when its dialect can rewrite a shell command', () => {
    for (const agent of AGENTS) assert.equal(agent.shellConfinement, agent.dialect.confineShell ? 'sandboxed' : 'text policy', agent.id);
    assert.deepEqual(AGENTS.filter((a) => a.shellConfinement === 'sandboxed').map((a) => a.id), ['claude', 'gemini', 'codex', 'copilot', 'droid']);
  });

  it('Claude Code: Bash keeps its description and timeout with the command replaced; other tools are not rewritten', () => {
    assert.deepEqual(claudeDialect.confineShell?.('Bash', { command: 'echo ok', description: 'd', timeout: 5000 }, LINE), { command: LINE, description: 'd', timeout: 5000 });
    assert.equal(claudeDialect.confineShell?.('Write', { file_path: 'x', content: '' }, LINE), undefined);
    assert.equal(claudeDialect.confineShell?.('Bash', {}, LINE), undefined, 'no command field, nothing to replace');
  });

  it('Claude Code renders the rewrite as updatedInput with an allow, and with an ask (its person approves the confined command)', () => {
    const event = pre('Bash', { command: 'echo ok' });
    const allow = JSON.parse(claudeDialect.render(event, { decision: 'allow', updatedInput: { command: LINE }, context: 'runs confined' }).stdout).hookSpecificOutput;
    assert.deepEqual(allow, { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: LINE }, additionalContext: 'runs confined' });
    const ask = JSON.parse(claudeDialect.render(event, { decision: 'ask', reason: 'why', updatedInput: { command: LINE } }).stdout).hookSpecificOutput;
    assert.deepEqual(ask, { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'why', updatedInput: { command: LINE } });
    const deny = JSON.parse(claudeDialect.render(event, { decision: 'deny', reason: 'no', updatedInput: { command: LINE } }).stdout).hookSpecificOutput;
    assert.equal(deny.updatedInput, undefined, 'a refusal carries no rewrite');
  });

  it('Gemini CLI: run_shell_command keeps dir_path and description; the rewrite is tool_input with an allow; an ask is a refusal', () => {
    const input = { command: 'echo ok', description: 'd', dir_path: 'src' };
    const updated = geminiDialect.confineShell?.('run_shell_command', input, LINE);
    assert.deepEqual(updated, { command: LINE, description: 'd', dir_path: 'src' });
    const event = pre('run_shell_command', input, 'BeforeTool');
    const allow = JSON.parse(geminiDialect.render(event, { decision: 'allow', updatedInput: updated }).stdout);
    assert.equal(allow.decision, 'allow');
    assert.deepEqual(allow.hookSpecificOutput.tool_input, updated);
    const ask = JSON.parse(geminiDialect.render(event, { decision: 'ask', reason: 'why', updatedInput: updated }).stdout);
    assert.equal(ask.decision, 'deny', 'Gemini cannot ask from a hook: the original never runs');
  });

  it('the command line reaches sh -c byte for byte, quotes and all', () => {
    const command = `printf '%s\\n' "it's" $HOME \`x\` 'a"b' && echo $((1+1)); echo '\\''`;
    assert.equal(shellQuote('plain/path-1.ts'), 'plain/path-1.ts');
    const line = confinedCommandLine({ file: '/bin/sh', args: ['-c', 'printf %s "$0"', command], env: {} }, '/tmp/governor-shell-abcdef');
    const run = spawnSync('/bin/bash', ['-c', line], { encoding: 'utf8' });
    assert.equal(run.stdout, command, run.stderr);
  });

  it('the private temp folder reaches the command as TMPDIR, TMP and TEMP through shell assignments (no env program), even with a space in it', () => {
    for (const shell of ['/bin/sh', '/bin/bash']) {
      const line = confinedCommandLine({ file: '/bin/sh', args: ['-c', 'printf "%s|%s|%s" "$TMPDIR" "$TMP" "$TEMP"'], env: {} }, '/tmp/governor shell-abcdef');
      assert.match(line, /^TMPDIR='\/tmp\/governor shell-abcdef' TMP=/);
      const run = spawnSync(shell, ['-c', line], { encoding: 'utf8' });
      assert.equal(run.stdout, '/tmp/governor shell-abcdef|/tmp/governor shell-abcdef|/tmp/governor shell-abcdef', run.stderr);
    }
  });
});
