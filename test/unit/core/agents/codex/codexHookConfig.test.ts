import { strict as assert } from 'node:assert';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hookCommandFor, installHookConfig, uninstallHookConfig } from '../../../../../src/core/agents/agentHooks';
import { createHarness } from '../../../../support/governorHarness';
import { runGovernor } from '../../../../support/runGovernor';

const CLI = '/opt/intent governor/dist/hook.js';

function text(edit: ReturnType<typeof installHookConfig>): string {
  assert.ok(edit.ok, edit.ok ? '' : edit.message);
  return edit.text ?? '';
}

describe('Codex CLI hook config (.codex/hooks.json)', () => {
  const mine = { description: 'team hooks', hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './lint.sh', timeout: 30 }] }] } };

  it('writes every tool and the lifecycle events in Codex’s shape, keeping the user’s hooks, once however often it runs', () => {
    const once = text(installHookConfig('codex', JSON.stringify(mine), CLI));
    assert.equal(text(installHookConfig('codex', once, CLI)), once);
    const config = JSON.parse(once);
    assert.equal(config.description, 'team hooks');
    const command = hookCommandFor('codex', CLI);
    const ours = { type: 'command', command, timeout: 120 };
    // After the user's own: Codex trusts each hook by its position, so theirs keep theirs.
    assert.deepEqual(config.hooks.PreToolUse, [mine.hooks.PreToolUse[0], { hooks: [ours] }]);
    for (const event of ['PostToolUse', 'PermissionRequest', 'SessionStart', 'UserPromptSubmit', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact']) assert.deepEqual(config.hooks[event], [{ hooks: [ours] }], event);
    assert.deepEqual(config.hooks.SessionEnd, [{ hooks: [{ type: 'command', command, timeout: 3 }] }], 'Codex cuts SessionEnd hooks off at 3 s');
    assert.deepEqual(Object.keys(config).sort(), ['description', 'hooks'], 'Codex refuses a hooks.json with any other top-level key');
    assert.deepEqual(JSON.parse(text(uninstallHookConfig('codex', once))), mine);
    assert.deepEqual(uninstallHookConfig('codex', text(installHookConfig('codex', undefined, CLI))), { ok: true, text: null });
  });

  it('on Windows names this machine’s hook bundle (its shell cannot run the POSIX guard); its failures are blocks elsewhere: see installedHookFailures', () => {
    assert.equal(hookCommandFor('codex', CLI, 'win32'), `node "${CLI}" hook codex --timeout-ms 110000`);
  });

  describe('`governor hooks install --agent codex`', () => {
    let bin: string;
    beforeEach(async () => {
      bin = await mkdtemp(join(tmpdir(), 'ig-bin-'));
    });
    afterEach(() => rm(bin, { recursive: true, force: true }));

    it('writes .codex/hooks.json beside the user’s hooks and, with no codex installed, says how to trust them later; uninstall restores the file', async () => {
      const h = await createHarness();
      try {
        await mkdir(join(h.root, '.codex'), { recursive: true });
        await writeFile(join(h.root, '.codex', 'hooks.json'), JSON.stringify(mine));
        const installed = await runGovernor(['hooks', 'install', '--agent', 'codex', '--workspace', h.root], { anchorDir: h.root, env: { PATH: `${bin}:/usr/bin:/bin` } });
        assert.equal(installed.code, 0, installed.stderr);
        assert.match(installed.stdout, /^codex: .*\/\.codex\/hooks\.json written$/m);
        assert.match(installed.stdout, /^codex: .*\/\.codex\/config\.toml unchanged \(no codex on PATH: when you first run codex in this project, trust the project and review and trust Intent Governor's hooks in its \/hooks screen/m);
        const config = JSON.parse(await readFile(join(h.root, '.codex', 'hooks.json'), 'utf8'));
        assert.equal(config.hooks.PreToolUse[1].hooks[0].command, hookCommandFor('codex', ''), 'the launcher, not this machine’s path');
        const removed = await runGovernor(['hooks', 'uninstall', '--agent', 'codex', '--workspace', h.root], { anchorDir: h.root });
        assert.equal(removed.code, 0, removed.stderr);
        assert.deepEqual(JSON.parse(await readFile(join(h.root, '.codex', 'hooks.json'), 'utf8')), mine);
        await writeFile(join(h.root, '.codex', 'hooks.json'), '');
        await runGovernor(['hooks', 'install', '--agent', 'codex', '--workspace', h.root], { anchorDir: h.root, env: { PATH: `${bin}:/usr/bin:/bin` } });
        await runGovernor(['hooks', 'uninstall', '--agent', 'codex', '--workspace', h.root], { anchorDir: h.root });
        await assert.rejects(stat(join(h.root, '.codex', 'hooks.json')), 'a file that held only our hooks is removed');
      } finally {
        await h.dispose();
      }
    });

    it('fails, saying what to do, when the codex it finds cannot trust the hooks (its app-server does not answer)', async () => {
      const h = await createHarness();
      try {
        await writeFile(join(bin, 'codex'), '#!/bin/sh\necho "error: unknown subcommand app-server" >&2\nexit 1\n');
        await chmod(join(bin, 'codex'), 0o755);
        const installed = await runGovernor(['hooks', 'install', '--agent', 'codex', '--workspace', h.root], { anchorDir: h.root, env: { PATH: `${bin}:/usr/bin:/bin` } });
        assert.equal(installed.code, 1, installed.stdout);
        assert.match(installed.stdout, /^codex: .*\/\.codex\/hooks\.json written$/m, 'the hooks are written all the same');
        assert.match(installed.stderr, /governor hooks: codex: could not trust Intent Governor's hooks through codex app-server \(.*exited \(1\)\); trust them in codex's \/hooks screen\./);
      } finally {
        await h.dispose();
      }
    });
  });
});
