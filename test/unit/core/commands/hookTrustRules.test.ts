import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileHookApprovals } from '../../../../src/core/userHooks/hookApprovals';
import { analyzeCommand } from '../../../../src/core/commands/commandPolicy';
import { hookTrustStores, type TrustStore } from '../../../../src/core/commands/hookTrustRules';
import { codeOf, createHarness, type Harness } from '../../../support/governorHarness';

// The stores as a machine with HOME=/home/dev and no overrides has them.
const STORES: TrustStore[] = hookTrustStores({ HOME: '/home/dev' });
const PATHS = { workspaceRoot: '/home/dev/project', homeDir: '/home/dev', trustStores: STORES };

function verdictOf(command: string) {
  return analyzeCommand(command, PATHS);
}

describe('hook trust is a person’s: the command policy refuses it to agents', () => {
  it('knows where the approvals and the user’s hooks file are (beside the anchors; the governor home)', () => {
    assert.deepEqual(STORES.map((s) => s.path), ['/home/dev/.config/intent-governor/hook-approvals', '/home/dev/.intent-governor/hooks.json', '/home/dev/.intent-governor/keys']);
    const custom = hookTrustStores({ HOME: '/h', INTENT_GOVERNOR_ANCHOR_DIR: '/a/anchors', INTENT_GOVERNOR_HOME: '/g' });
    assert.deepEqual(custom.map((s) => s.path), ['/a/hook-approvals', '/g/hooks.json', '/g/keys']);
  });

  describe('`governor hooks trust`, however it is spelled, is denied with the reason', () => {
    for (const command of [
      'governor hooks trust',
      'governor hooks trust --yes',
      'governor hooks --workspace . trust --yes',
      'governor hooks --workspace=. trust',
      'intent-governor hooks trust --yes',
      'npx governor hooks trust --yes',
      'npx -y intent-governor hooks trust',
      'npm exec -- governor hooks trust',
      'node dist/cli.js hooks trust --yes',
      'node /home/dev/.vscode/extensions/intent-governor/dist/cli.js hooks trust --yes',
      './node_modules/.bin/governor hooks trust',
      '/usr/local/bin/governor hooks trust',
      'env CI=1 governor hooks trust --yes',
      'timeout 30 governor hooks trust --yes',
      'ls && governor hooks trust --yes',
      'bash -c "governor hooks trust --yes"',
      'sh -c \'node dist/cli.js hooks trust --yes\'',
      'echo $(governor hooks trust --yes)',
      'governor hooks $MODE --yes',
      'yes | governor hooks trust',
    ]) {
      it(command, () => {
        const analysis = verdictOf(command);
        assert.equal(analysis.verdict, 'denied', analysis.reasons.join('\n'));
        assert.ok(
          analysis.reasons.some((r) => r.includes('only a person at a terminal may trust hooks')),
          analysis.reasons.join('\n'),
        );
      });
    }
  });

  describe('other hooks subcommands and look-alikes are not refused for it', () => {
    for (const command of ['node dist/cli.js hooks list --json', 'node dist/cli.js hooks install --agent claude', 'grep -rn "hooks trust" src', 'git log --grep trust -- hooks']) {
      it(command, () => {
        const analysis = verdictOf(command);
        assert.notEqual(analysis.verdict, 'denied', analysis.reasons.join('\n'));
      });
    }
  });

  describe('a write into the approvals store or the user’s hooks file is denied, whatever the path looks like', () => {
    for (const command of [
      'echo "{}" > /home/dev/.config/intent-governor/hook-approvals/abc.json',
      'cp /tmp/approved.json ~/.config/intent-governor/hook-approvals/abc.json',
      'cp /tmp/approved.json $HOME/.config/intent-governor/hook-approvals/abc.json',
      'cp /tmp/approved.json "${HOME}/.config/intent-governor/hook-approvals/"',
      'cp x $XDG_CONFIG_HOME/intent-governor/hook-approvals/abc.json',
      'tee ~/.intent-governor/hooks.json < hooks.json',
      'cat hooks.json >> ~/.intent-governor/hooks.json',
      'mv /tmp/evil ~/.intent-governor/hooks.json',
      'rm -rf ~/.config/intent-governor/hook-approvals',
      'mv /tmp/evil-config ~/.config/intent-governor',
      'cp -r /tmp/x ~/.config/intent-governor/hook-*/',
      'cd ~/.config/intent-governor && cp /tmp/x hook-approvals/abc.json',
      'sed -i s/a/b/ /home/dev/.config/intent-governor/hook-approvals/abc.json',
      'ln -sf /tmp/x /home/dev/.intent-governor/hooks.json',
      'touch /HOME/DEV/.Intent-Governor/Hooks.json',
    ]) {
      it(command, () => {
        const analysis = verdictOf(command);
        assert.equal(analysis.verdict, 'denied', analysis.reasons.join('\n'));
        assert.ok(
          analysis.reasons.some((r) => /in (the hook approvals store|the user's hooks file): only a person at a terminal may trust hooks/.test(r)),
          analysis.reasons.join('\n'),
        );
      });
    }
  });

  it('reading the stores is refused as reading the governor’s own files, not as trusting hooks', () => {
    for (const command of ['cat ~/.intent-governor/hooks.json', 'ls ~/.config/intent-governor/hook-approvals']) {
      const analysis = verdictOf(command);
      assert.equal(analysis.verdict, 'denied', command);
      assert.ok(analysis.reasons.some((r) => r.includes("the governor's own files")), analysis.reasons.join('\n'));
      assert.ok(!analysis.reasons.some((r) => r.includes('may trust hooks')), analysis.reasons.join('\n'));
    }
  });

  it('a workspace that holds the store (a home folder opened as the workspace) cannot write it by a relative path', () => {
    const analysis = analyzeCommand('cp /tmp/x .config/intent-governor/hook-approvals/abc.json', { workspaceRoot: '/home/dev', homeDir: '/home/dev', trustStores: STORES });
    assert.equal(analysis.verdict, 'denied', analysis.reasons.join('\n'));
  });

  it('a symbolic link in the workspace that leads into the store is followed', async () => {
    const base = await realpath(await mkdtemp(join(tmpdir(), 'ig-truststore-')));
    try {
      const stores = hookTrustStores({ HOME: join(base, 'home') });
      await mkdir(stores[0].path, { recursive: true });
      await mkdir(join(base, 'project'));
      await symlink(stores[0].path, join(base, 'project', 'approvals'));
      const analysis = analyzeCommand('cp /tmp/x approvals/abc.json', { workspaceRoot: join(base, 'project'), homeDir: join(base, 'home'), trustStores: stores });
      assert.equal(analysis.verdict, 'denied', analysis.reasons.join('\n'));
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

describe('run_command through the governor refuses hook trust to an agent', () => {
  let h: Harness;
  let approvals: string;
  let saved: NodeJS.ProcessEnv;
  beforeEach(async () => {
    saved = { ...process.env };
    approvals = await mkdtemp(join(tmpdir(), 'ig-trust-anchors-'));
    process.env.INTENT_GOVERNOR_ANCHOR_DIR = join(approvals, 'anchors');
    h = await createHarness();
    await h.call('select_active_intent', { intent_id: 'auth-refactor' });
  });
  afterEach(async () => {
    process.env = saved;
    await h.dispose();
    await rm(approvals, { recursive: true, force: true });
  });

  it('`npx governor hooks trust --yes` is COMMAND_DENIED, never asked, and nothing gets approved', async () => {
    const result = await h.call('run_command', { command: 'npx governor hooks trust --yes' });
    assert.equal(codeOf(result), 'COMMAND_DENIED');
    assert.ok(!result.ok);
    assert.match(result.error.message, /only a person at a terminal may trust hooks/);
    assert.equal(h.approver.requests.length, 0, 'no human was asked to let it through');
  });

  it('a write into the approvals store (as this process finds it) is COMMAND_DENIED, never asked', async () => {
    const store = join(approvals, 'hook-approvals');
    const result = await h.call('run_command', { command: `echo '{"approved":{}}' > ${store}/$(basename $PWD).json` });
    assert.equal(codeOf(result), 'COMMAND_DENIED');
    assert.ok(!result.ok);
    assert.match(result.error.message, /in the hook approvals store: only a person at a terminal may trust hooks/);
    assert.equal(h.approver.requests.length, 0);
    assert.equal(await new FileHookApprovals(store).isApproved(h.root, 'sha256:x'), false);
  });

  it('a write from a cwd inside a workspace that holds the store is placed from that cwd and refused', async () => {
    // The anchors (and so the approvals) inside the workspace, inside the intent's scope: only the real path tells.
    process.env.INTENT_GOVERNOR_ANCHOR_DIR = join(h.root, 'src', 'auth', 'cfg', 'anchors');
    await h.file('src/auth/cfg/hook-approvals/.keep', '');
    const result = await h.call('run_command', { command: 'touch hook-approvals/abc.json', cwd: 'src/auth/cfg' });
    assert.equal(codeOf(result), 'COMMAND_DENIED');
    assert.ok(!result.ok);
    assert.match(result.error.message, /writes hook-approvals\/abc\.json, in the hook approvals store: only a person at a terminal may trust hooks/);
    assert.equal(h.approver.requests.length, 0);
  });
});

describe('signing keys are for a person only', () => {
  const judge = (command: string) => analyzeSigning(command);
  it('denies reading, copying or writing the private signing key, and governor keys init|trust|revoke, to agents', () => {
    for (const command of ['cat ~/.intent-governor/keys/signer.json', 'cp $HOME/.intent-governor/keys/signer.json src/x', 'base64 /root/.intent-governor/keys/signer.json', 'npx governor keys init', 'node dist/cli.js keys trust a.pub', 'governor keys revoke alice', 'echo x > ~/.intent-governor/keys/x']) {
      const verdict = judge(command);
      assert.equal(verdict.verdict, 'denied', command);
      assert.ok(verdict.reasons.some((r) => r.includes('signing keys')), `${command}: ${verdict.reasons.join('; ')}`);
    }
  });
  it('leaves listing keys and unrelated home paths alone', () => {
    assert.notEqual(judge('ls ~').verdict, 'denied');
    assert.ok(!judge('governor keys list').reasons.some((r) => r.includes('signing keys')));
  });
});

function analyzeSigning(command: string) {
  return analyzeCommand(command, { workspaceRoot: '/ws', homeDir: '/root' });
}
