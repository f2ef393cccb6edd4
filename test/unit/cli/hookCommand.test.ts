import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeDiscoveryFile } from '../../../src/core/mcp/discoveryFile';
import { assertAgentTraceFile } from '../../support/agentTraceSchema';
import { bundledScript } from '../../support/bundledScript';
import { finished, finishedOrGaveUp, type Finished } from '../../support/childProcesses';
import type { Harness } from '../../support/governorHarness';
import { headlessHookWorkspace, LOGIN, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { hookFixture, runHook, spawnHook } from '../../support/runHook';

interface PreAnswer {
  hookSpecificOutput: { hookEventName: string; permissionDecision: string; permissionDecisionReason: string };
}

function preAnswer(stdout: string): PreAnswer['hookSpecificOutput'] {
  const answer = JSON.parse(stdout) as PreAnswer;
  assert.deepEqual(Object.keys(answer), ['hookSpecificOutput']);
  assert.equal(answer.hookSpecificOutput.hookEventName, 'PreToolUse');
  return answer.hookSpecificOutput;
}

/**
 * Runs the hook on `stdin`; if it has not exited after `limitMs`, the harness kills it and `gaveUp` says so.
 * A hook that only ends because the harness gave up would have let the agent's own timeout decide.
 */
async function runHookWithin(agent: string, stdin: string, args: string[], env: NodeJS.ProcessEnv, limitMs = 15_000): Promise<Finished & { gaveUp: boolean }> {
  return finishedOrGaveUp(spawnHook(agent, args, env), stdin, limitMs);
}

/** A Claude Code payload from a fixture, with changes to its top level and to its tool_input. */
function claudePayload(fixture: string, root: string, top: Record<string, unknown>, toolInput: Record<string, unknown> = {}): string {
  const payload = JSON.parse(hookFixture('claude', fixture, root)) as Record<string, unknown> & { tool_input?: Record<string, unknown> };
  return JSON.stringify({ ...payload, ...top, ...(payload.tool_input ? { tool_input: { ...payload.tool_input, ...toolInput } } : {}) });
}

describe('governor hook (headless, as the agent runs it)', () => {
  let workspace: HeadlessHookWorkspace;
  let h: Harness;
  let env: NodeJS.ProcessEnv;
  let home: string;
  beforeEach(async () => ({ h, home, env } = workspace = await headlessHookWorkspace()));
  afterEach(() => workspace.dispose());

  const hook = (agent: string, fixture: string, args = ['--intent', 'auth-refactor']) => runHook(agent, hookFixture(agent, fixture, h.root), args, env);

  for (const [agent, prefix] of [['claude', 'pre-write'], ['vscode', 'pre-create-file']] as const) {
    describe(agent, () => {
      it('allows an in-scope new file by saying nothing (exit 0, empty stdout), so the agent’s own permissions still apply', async () => {
        const run = await hook(agent, `${prefix}-in-scope`);
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.stdout, '');
      });

      it('denies an out-of-scope write with the reason the model sees', async () => {
        const run = await hook(agent, `${prefix}-out-of-scope`);
        assert.equal(run.code, 0, run.stderr);
        const answer = preAnswer(run.stdout);
        assert.equal(answer.permissionDecision, 'deny');
        assert.match(answer.permissionDecisionReason, /^\[SCOPE_VIOLATION\] "src\/billing\/invoice\.ts" is outside the owned scope of intent auth-refactor/);
      });

      it('denies a write to a protected path', async () => {
        const run = await hook(agent, `${prefix}-protected`);
        const answer = preAnswer(run.stdout);
        assert.equal(answer.permissionDecision, 'deny');
        assert.match(answer.permissionDecisionReason, /^\[PROTECTED_PATH\]/);
      });

      it('denies a write when no intent is bound, and says how to get one', async () => {
        const run = await hook(agent, `${prefix}-in-scope`, []);
        const answer = preAnswer(run.stdout);
        assert.equal(answer.permissionDecision, 'deny');
        assert.match(answer.permissionDecisionReason, /^\[NO_ACTIVE_INTENT\].*--intent ID/s);
      });

      it('denies a tool it does not know (fail closed), and audits the refusal in the governance log', async () => {
        const run = await hook(agent, 'pre-unknown-tool');
        const answer = preAnswer(run.stdout);
        assert.equal(answer.permissionDecision, 'deny');
        assert.match(answer.permissionDecisionReason, /^\[INVALID_INPUT\] .*does not know .* so it is refused/);
        const log = (await readFile(join(h.root, '.orchestration/governance_log.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
        assert.deepEqual(
          log.map((r) => [r.decision, r.code]),
          [['deny', 'INVALID_INPUT']],
        );
        assert.match(log[0].message, /does not know/);
      });

      it('blocks garbage, empty and foreign stdin with exit 2 and a reason on stderr', async () => {
        for (const stdin of ['', 'not json', '[]', '{"hook_event_name":"PreToolUse","session_id":"s"}']) {
          const run = await runHook(agent, stdin, ['--intent', 'auth-refactor'], env);
          assert.equal(run.code, 2, stdin);
          assert.equal(run.stdout, '');
          assert.match(run.stderr, /^Intent Governor blocked this call: /);
        }
      });

      it('injects the intent handshake on SessionStart', async () => {
        const run = await hook(agent, 'session-start');
        assert.equal(run.code, 0, run.stderr);
        const answer = JSON.parse(run.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
        assert.equal(answer.hookSpecificOutput.hookEventName, 'SessionStart');
        assert.match(answer.hookSpecificOutput.additionalContext, /# Active intent: `auth-refactor`/);
      });
    });
  }

  it('asks a human (through the agent) for a destructive Bash / run_in_terminal command', async () => {
    for (const [agent, fixture] of [['claude', 'pre-bash-destructive'], ['vscode', 'pre-run-in-terminal-destructive']]) {
      const run = await hook(agent, fixture);
      const answer = preAnswer(run.stdout);
      assert.equal(answer.permissionDecision, 'ask', agent);
      assert.match(answer.permissionDecisionReason, /Destructive command: rm -rf src\/auth/);
    }
  });

  it('lets a safe command, a read and an edit that applies through', async () => {
    for (const [agent, fixture] of [['claude', 'pre-read'], ['claude', 'pre-edit'], ['claude', 'pre-multiedit'], ['vscode', 'pre-read-file'], ['vscode', 'pre-replace-string']]) {
      const run = await hook(agent, fixture);
      assert.equal(run.code, 0, `${fixture}: ${run.stderr}`);
      assert.equal(run.stdout, '', fixture);
    }
    // A safe command is allowed; where a sandbox starts (bubblewrap here), rewritten to run confined.
    const safe = await hook('claude', 'pre-bash-safe');
    assert.equal(safe.code, 0, safe.stderr);
    if (safe.stdout !== '') {
      assert.equal(preAnswer(safe.stdout).permissionDecision, 'allow');
      assert.match(safe.stdout, /bwrap .* -- \/bin\/sh -c 'git status'/u);
    }
  });

  it('denies an edit whose text is no longer in the file (the basis is the file as it is now)', async () => {
    await h.file('src/auth/login.ts', 'export function login() {\n  return 42;\n}\n');
    const run = await hook('claude', 'pre-edit');
    const answer = preAnswer(run.stdout);
    assert.equal(answer.permissionDecision, 'deny');
  });

  for (const [agent, pre, post] of [['claude', 'pre-edit', 'post-edit'], ['vscode', 'pre-replace-string', 'post-replace-string']] as const) {
    it(`${agent}: PostToolUse appends one schema-valid trace record of the lines the native tool changed`, async () => {
      assert.equal((await hook(agent, pre)).stdout, '');
      await writeFile(join(h.root, 'src/auth/login.ts'), LOGIN.replace('return false;', 'return true;')); // the native tool runs
      const run = await hook(agent, post);
      assert.equal(run.code, 0, run.stderr);
      const records = assertAgentTraceFile(join(h.root, '.orchestration', 'agent_trace.jsonl'));
      assert.equal(records.length, 1);
      const record = records[0] as { files: { path: string; conversations: { contributor: { type: string }; ranges: { start_line: number; end_line: number }[] }[] }[]; metadata: Record<string, unknown> };
      assert.equal(record.files[0].path, 'src/auth/login.ts');
      assert.deepEqual(record.files[0].conversations[0].ranges.map((r) => [r.start_line, r.end_line]), [[2, 2]]);
      assert.equal(JSON.stringify(record.metadata).includes('auth-refactor'), true);
      assert.equal(JSON.stringify(record.metadata).includes(agent === 'claude' ? 'claude-code' : 'vscode-agent'), true);
    });
  }

  it('PostToolUse of a new file traces every line of it', async () => {
    await hook('claude', 'pre-write-in-scope');
    await writeFile(join(h.root, 'src/auth/token.ts'), 'export const token = 1;\n');
    await hook('claude', 'post-write-in-scope');
    const records = assertAgentTraceFile(join(h.root, '.orchestration', 'agent_trace.jsonl'));
    assert.equal(records.length, 1);
    assert.match(JSON.stringify(records[0]), /src\/auth\/token\.ts/);
  });

  it('answers the same through the full CLI (`governor hook`, for a globally installed governor)', async () => {
    const cli = bundledScript(join(__dirname, '..', '..', '..', 'src', 'cli', 'main.ts'));
    const child = spawn(process.execPath, [cli, 'hook', 'claude', '--intent', 'auth-refactor'], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end(hookFixture('claude', 'pre-write-out-of-scope', h.root));
    const run = await finished(child);
    assert.equal(run.code, 0, run.stderr);
    assert.match(preAnswer(run.stdout).permissionDecisionReason, /^\[SCOPE_VIOLATION\] "src\/billing\/invoice\.ts"/);
  });

  it('finds the governed workspace above a payload cwd in a subfolder', async () => {
    const payload = JSON.parse(hookFixture('claude', 'pre-write-out-of-scope', h.root));
    payload.cwd = join(h.root, 'src', 'auth');
    const run = await runHook('claude', JSON.stringify(payload), ['--intent', 'auth-refactor'], env);
    assert.match(preAnswer(run.stdout).permissionDecisionReason, /^\[SCOPE_VIOLATION\] "src\/billing\/invoice\.ts"/);
  });

  it('outside any governed workspace, refuses a change and lets a read through, leaving no .orchestration behind', async () => {
    const nowhere = await mkdtemp(join(tmpdir(), 'ig-ungoverned-'));
    try {
      const write = JSON.parse(hookFixture('claude', 'pre-write-in-scope', h.root));
      write.cwd = nowhere;
      write.tool_input.file_path = join(nowhere, 'a.ts');
      const refused = preAnswer((await runHook('claude', JSON.stringify(write), ['--intent', 'auth-refactor'], env)).stdout);
      assert.equal(refused.permissionDecision, 'deny');
      assert.match(refused.permissionDecisionReason, /^\[NO_GOVERNED_WORKSPACE\] .*no governed workspace at or above .*ig-ungoverned-/);
      const read = { ...write, tool_name: 'Read', tool_input: { file_path: join(nowhere, 'a.ts') } };
      const allowed = await runHook('claude', JSON.stringify(read), ['--intent', 'auth-refactor'], env);
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.notEqual(allowed.stdout && preAnswer(allowed.stdout).permissionDecision, 'deny', allowed.stdout);
      await assert.rejects(readFile(join(nowhere, '.orchestration', 'governance_log.jsonl')), /ENOENT/);
    } finally {
      await rm(nowhere, { recursive: true, force: true });
    }
  });

  it('records refusals in the governance log', async () => {
    await hook('claude', 'pre-write-out-of-scope');
    const log = await readFile(join(h.root, '.orchestration', 'governance_log.jsonl'), 'utf8');
    assert.match(log, /SCOPE_VIOLATION/);
  });

  it('blocks at its timeout and exits when the agent never closes stdin', async () => {
    const child = spawnHook('claude', ['--timeout-ms', '500'], env);
    child.stdin.write(hookFixture('claude', 'pre-write-in-scope', h.root).slice(0, 40)); // half a payload, and stdin stays open
    const run = await finished(child);
    child.stdin.destroy();
    assert.equal(run.code, 2);
    assert.match(run.stderr, /did not decide within 500 ms, so the call is refused/);
  });

  describe('hostile targets', () => {
    it('denies a Write to /dev/zero at once, as outside the workspace, without reading it (the process exits on its own)', async () => {
      const run = await runHookWithin('claude', claudePayload('pre-write-in-scope', h.root, {}, { file_path: '/dev/zero' }), ['--intent', 'auth-refactor', '--timeout-ms', '5000'], env);
      assert.equal(run.gaveUp, false, 'the harness had to kill the hook');
      assert.deepEqual([run.code, run.signal], [0, null], run.stderr);
      const answer = preAnswer(run.stdout);
      assert.equal(answer.permissionDecision, 'deny');
      assert.match(answer.permissionDecisionReason, /^\[PATH_OUTSIDE_WORKSPACE\] The path "\/dev\/zero"/);
    });

    it('denies a Write to a FIFO inside the workspace instead of hanging on it', async () => {
      execFileSync('mkfifo', [join(h.root, 'src', 'auth', 'pipe.ts')]);
      const run = await runHookWithin('claude', claudePayload('pre-write-in-scope', h.root, {}, { file_path: join(h.root, 'src', 'auth', 'pipe.ts') }), ['--intent', 'auth-refactor', '--timeout-ms', '5000'], env);
      assert.equal(run.gaveUp, false, 'the hook hung on the FIFO');
      assert.deepEqual([run.code, run.signal], [0, null], run.stderr);
      const answer = preAnswer(run.stdout);
      assert.equal(answer.permissionDecision, 'deny');
      assert.match(answer.permissionDecisionReason, /src\/auth\/pipe\.ts.*not a regular file/);
    });

    it('still decides when a FIFO or a device sits among the discovery files it reads before deciding', async () => {
      await mkdir(join(home, 'servers'), { recursive: true });
      execFileSync('mkfifo', [join(home, 'servers', '1.json')]);
      await symlink('/dev/zero', join(home, 'servers', '2.json'));
      const run = await runHookWithin('claude', hookFixture('claude', 'pre-write-in-scope', h.root), ['--intent', 'auth-refactor', '--timeout-ms', '5000'], env);
      assert.equal(run.gaveUp, false);
      assert.deepEqual([run.code, run.stdout], [0, ''], run.stderr);
    });

    it('denies, logs and exits when .git/HEAD is a FIFO (the refusal’s record reads the revision)', async () => {
      await mkdir(join(h.root, '.git'), { recursive: true });
      execFileSync('mkfifo', [join(h.root, '.git', 'HEAD')]);
      const run = await runHookWithin('claude', hookFixture('claude', 'pre-write-out-of-scope', h.root), ['--intent', 'auth-refactor', '--timeout-ms', '3000'], env);
      assert.equal(run.gaveUp, false, 'the hook could not exit: a thread was stuck opening the FIFO');
      assert.deepEqual([run.code, run.signal], [0, null], run.stderr);
      assert.match(preAnswer(run.stdout).permissionDecisionReason, /^\[SCOPE_VIOLATION\]/);
    });

    it('still decides when a FIFO sits at the code cache’s name for the headless governor', async () => {
      const headlessBundle = bundledScript(join(__dirname, '..', '..', '..', 'src', 'cli', 'headlessDecider.ts'), 'hook-headless.js');
      const key = createHash('sha256').update(`${process.version}\0${process.arch}\0`).update(await readFile(headlessBundle)).digest('hex').slice(0, 32);
      await mkdir(join(home, 'code-cache'), { recursive: true });
      execFileSync('mkfifo', [join(home, 'code-cache', `${key}.v8`)]);
      const run = await runHookWithin('claude', hookFixture('claude', 'pre-write-out-of-scope', h.root), ['--intent', 'auth-refactor', '--timeout-ms', '3000'], env);
      assert.equal(run.gaveUp, false, 'the hook hung on the code cache');
      assert.deepEqual([run.code, run.signal], [0, null], run.stderr);
      assert.match(preAnswer(run.stdout).permissionDecisionReason, /^\[SCOPE_VIOLATION\]/);
    });

    it('refuses every call when the intents file is a FIFO, within --timeout-ms and by exiting on its own', async () => {
      const intents = join(h.root, '.orchestration', 'active_intents.yaml');
      await rm(intents);
      execFileSync('mkfifo', [intents]);
      for (const fixture of ['pre-write-in-scope', 'session-start']) {
        const run = await runHookWithin('claude', hookFixture('claude', fixture, h.root), ['--intent', 'auth-refactor', '--timeout-ms', '3000'], env);
        assert.equal(run.gaveUp, false, `${fixture}: the hook never answered; the agent's own hook timeout would have decided`);
        assert.equal(run.signal, null);
        if (fixture === 'session-start') {
          assert.equal(run.code, 0, run.stderr);
          assert.match(JSON.parse(run.stdout).hookSpecificOutput.additionalContext, /FIFO \(named pipe\), not a regular file/);
          continue;
        }
        assert.equal(run.code, 0, run.stderr);
        const answer = preAnswer(run.stdout);
        assert.equal(answer.permissionDecision, 'deny');
        assert.match(answer.permissionDecisionReason, /^\[INTENTS_FILE_INVALID\].*active_intents\.yaml is a FIFO \(named pipe\), not a regular file: refused/s);
      }
    });
  });

  describe('paths and commands resolved where the agent stands (payload cwd)', () => {
    it('judges a relative Write at cwd/file_path, as Claude Code writes it', async () => {
      await mkdir(join(h.root, 'src', 'other'), { recursive: true });
      const outside = await runHook('claude', claudePayload('pre-write-in-scope', h.root, { cwd: join(h.root, 'src', 'other') }, { file_path: 'src/auth/token.ts' }), ['--intent', 'auth-refactor'], env);
      const denied = preAnswer(outside.stdout);
      assert.equal(denied.permissionDecision, 'deny');
      assert.match(denied.permissionDecisionReason, /^\[SCOPE_VIOLATION\] "src\/other\/src\/auth\/token\.ts" is outside the owned scope/);
      const inside = await runHook('claude', claudePayload('pre-write-in-scope', h.root, { cwd: join(h.root, 'src') }, { file_path: 'auth/token.ts' }), ['--intent', 'auth-refactor'], env);
      assert.equal(inside.code, 0, inside.stderr);
      assert.equal(inside.stdout, '', 'src/auth/token.ts is in scope');
    });

    it('expands ~/ to the home directory, as Claude Code does', async () => {
      const home = { ...env, HOME: dirname(h.root) };
      const inside = await runHook('claude', claudePayload('pre-write-in-scope', h.root, {}, { file_path: `~/${basename(h.root)}/src/auth/token.ts` }), ['--intent', 'auth-refactor'], home);
      assert.deepEqual([inside.code, inside.stdout], [0, ''], inside.stderr);
      const outside = await runHook('claude', claudePayload('pre-write-in-scope', h.root, {}, { file_path: '~/elsewhere.ts' }), ['--intent', 'auth-refactor'], home);
      assert.match(preAnswer(outside.stdout).permissionDecisionReason, /^\[PATH_OUTSIDE_WORKSPACE\]/);
    });

    it('judges a Bash command in the payload cwd: its redirect lands in that folder', async () => {
      await mkdir(join(h.root, 'src', 'billing'), { recursive: true });
      const billing = await runHook('claude', claudePayload('pre-bash-safe', h.root, { cwd: join(h.root, 'src', 'billing') }, { command: 'echo x > invoice.ts' }), ['--intent', 'auth-refactor'], env);
      const denied = preAnswer(billing.stdout);
      assert.equal(denied.permissionDecision, 'deny');
      assert.match(denied.permissionDecisionReason, /^\[SCOPE_VIOLATION\] "src\/billing\/invoice\.ts"/);
      // In scope (src/auth/token.ts), so not refused: confined by the sandbox (bubblewrap here), it runs in src/auth.
      const auth = await runHook('claude', claudePayload('pre-bash-safe', h.root, { cwd: join(h.root, 'src', 'auth') }, { command: 'echo x > token.ts' }), ['--intent', 'auth-refactor'], env);
      assert.equal(preAnswer(auth.stdout).permissionDecision, 'allow', auth.stdout);
      assert.ok(auth.stdout.includes(`--chdir ${join(h.root, 'src', 'auth')} -- /bin/sh -c 'echo x > token.ts'`), auth.stdout);
    });

    it('refuses a Bash command whose cwd is outside the workspace', async () => {
      const run = await runHook('claude', claudePayload('pre-bash-safe', h.root, { cwd: tmpdir() }), ['--intent', 'auth-refactor', '--workspace', h.root], env);
      const answer = preAnswer(run.stdout);
      assert.equal(answer.permissionDecision, 'deny');
      assert.match(answer.permissionDecisionReason, /^\[PATH_OUTSIDE_WORKSPACE\]/);
    });

    it('takes a file: URI from VS Code’s agent as the path it names, as its tools do', async () => {
      const payload = JSON.parse(hookFixture('vscode', 'pre-create-file-out-of-scope', h.root));
      payload.tool_input.filePath = pathToFileURL(join(h.root, 'src', 'billing', 'invoice.ts')).href;
      const answer = preAnswer((await runHook('vscode', JSON.stringify(payload), ['--intent', 'auth-refactor'], env)).stdout);
      assert.match(answer.permissionDecisionReason, /^\[SCOPE_VIOLATION\] "src\/billing\/invoice\.ts"/);
    });

    it('refuses a relative path from VS Code’s agent, whose tools accept only absolute paths', async () => {
      const payload = JSON.parse(hookFixture('vscode', 'pre-create-file-in-scope', h.root));
      payload.tool_input.filePath = 'src/auth/token.ts';
      const run = await runHook('vscode', JSON.stringify(payload), ['--intent', 'auth-refactor'], env);
      const answer = preAnswer(run.stdout);
      assert.equal(answer.permissionDecision, 'deny');
      assert.match(answer.permissionDecisionReason, /absolute path/);
    });
  });

  describe('with an extension that is listed but does not answer', () => {
    let silent: Server;
    const sockets: Socket[] = [];
    beforeEach(async () => {
      silent = createServer((socket) => sockets.push(socket)); // accepts and never answers
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const port = (silent.address() as { port: number }).port;
      await writeDiscoveryFile({ port, token: 't'.repeat(43), pid: process.pid, workspaceFolders: [h.root], url: `http://127.0.0.1:${port}/mcp` }, join(home, 'servers'));
    });
    afterEach(() => {
      for (const socket of sockets.splice(0)) socket.destroy();
      return new Promise<void>((resolve) => silent.close(() => resolve()));
    });

    it('denies within the timeout instead of letting the tool run', async () => {
      const started = Date.now();
      const run = await hook('claude', 'pre-write-in-scope', ['--timeout-ms', '1500']);
      assert.ok(Date.now() - started < 5000);
      if (run.code === 2) assert.match(run.stderr, /refused/);
      else assert.equal(preAnswer(run.stdout).permissionDecision, 'deny');
    });
  });
});
