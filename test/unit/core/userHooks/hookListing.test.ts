import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileHookRunLog } from '../../../../src/core/userHooks/fileHookRunLog';
import { FileHookApprovals } from '../../../../src/core/userHooks/hookApprovals';
import { hookListing, hookListingText, type DeclaredHooks } from '../../../../src/core/userHooks/hookListing';
import type { HookAction, HookLayer, HookSpec } from '../../../../src/core/userHooks/hookSpec';

function spec(id: string, layer: HookLayer, file: string, action: HookAction, extra: Partial<HookSpec> = {}): HookSpec {
  return {
    id,
    identity: `sha256:${id}`,
    name: id,
    event: 'PreToolUse',
    matcher: 'Bash',
    action,
    timeoutMs: 60_000,
    async: false,
    asyncRewake: false,
    once: false,
    onFailure: 'block',
    source: { layer, file },
    approvalHash: `sha256:${id.padEnd(64, '0')}`,
    ...extra,
  };
}

const DECLARED: DeclaredHooks = {
  hooks: [
    spec('mine', 'user', '~/.intent-governor/hooks.json', { type: 'command', command: 'notify-send done' }, { event: 'PostToolUse', matcher: '', async: true }),
    spec('push', 'project', '.orchestration/hooks.json', { type: 'command', command: './scripts/check-push.sh' }, { if: 'Bash(git push:*)' }),
    spec('lint', 'project', '.orchestration/hooks.json', { type: 'command', args: ['node', 'scripts/lint.js'] }, { event: 'PostToolUse', matcher: 'Write|Edit', once: true }),
    spec('audit', 'claude', '.claude/settings.json', { type: 'http', url: 'http://127.0.0.1:9000/audit', headers: {}, allowedEnvVars: [] }, { matcher: 'Write' }),
    spec('judge', 'claude', '.claude/settings.json', { type: 'prompt', prompt: 'Is $ARGUMENTS safe?' }, { event: 'UserPromptSubmit', matcher: '', asyncRewake: false }),
  ],
  problems: [{ file: '.claude/settings.local.json', message: 'is not valid JSON (Unexpected token } at line 3)' }],
  notes: ['.orchestration/hooks.yaml is read for now; move its hooks to .orchestration/hooks.json'],
};

describe('the hooks listing (governor hooks list, Show Hooks)', () => {
  let dir: string;
  const root = '/work/project';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ig-listing-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const ports = (trusted = true) => ({ approvals: new FileHookApprovals(join(dir, 'approvals')), runLog: new FileHookRunLog(join(dir, 'runs')), trusted });

  it('gives each hook its state: the user’s own, approved, not approved, and Claude Code’s files marked as not run for it', async () => {
    const p = ports();
    await p.approvals.approve(root, DECLARED.hooks[1].approvalHash, './scripts/check-push.sh');
    await p.runLog.record(root, 'sha256:push', { result: 'deny', durationMs: 41.6, at: '2025-01-01T00:00:00.000Z' });
    const listing = await hookListing(root, DECLARED, p);
    assert.deepEqual(
      listing.hooks.map((h) => [h.id, h.type, h.flags.join(','), h.stateText, h.notRunForClaudeCode, h.lastRunText]),
      [
        ['mine', 'command', 'async', "user's own", false, 'never run'],
        ['push', 'command', '', 'approved', false, 'deny, 42 ms'],
        ['lint', 'args', 'once', 'not approved: run governor hooks trust', false, 'never run'],
        ['audit', 'http', '', 'not approved: run governor hooks trust', true, 'never run'],
        ['judge', 'prompt', '', 'not approved: run governor hooks trust', true, 'never run'],
      ],
    );
    assert.deepEqual(listing.hooks.map((h) => h.action), ['notify-send done', './scripts/check-push.sh', '["node","scripts/lint.js"]', 'POST http://127.0.0.1:9000/audit', 'prompt: Is $ARGUMENTS safe?']);
    assert.deepEqual(listing.problems, DECLARED.problems);
    assert.deepEqual(listing.notes, DECLARED.notes);
  });

  it('in an untrusted workspace only the user’s own hooks may run', async () => {
    const listing = await hookListing(root, DECLARED, ports(false));
    assert.deepEqual(listing.hooks.map((h) => h.state), ['users_own', 'workspace_not_trusted', 'workspace_not_trusted', 'workspace_not_trusted', 'workspace_not_trusted']);
  });

  it('prints a table a person reads at 100 columns: grouped by file, matcher with its if, flags, state, last run; problems and notes below', async () => {
    const p = ports();
    await p.approvals.approve(root, DECLARED.hooks[1].approvalHash, './scripts/check-push.sh');
    await p.runLog.record(root, 'sha256:push', { result: 'deny', durationMs: 41.6, at: '2025-01-01T00:00:00.000Z' });
    const text = hookListingText(await hookListing(root, DECLARED, p));
    for (const line of text.split('\n').filter(Boolean)) assert.ok([...line].length <= 100, `over 100 columns: ${line}`);
    assert.equal(
      text,
      [
        '  EVENT             MATCHER                   TYPE           STATE         LAST RUN',
        '~/.intent-governor/hooks.json: yours, runs without approval',
        "  PostToolUse       *                         command async  user's own    never run",
        '.orchestration/hooks.json',
        '  PreToolUse        Bash if Bash(git push:*)  command        approved      deny, 42 ms',
        '  PostToolUse       Write|Edit                args once      not approved  never run',
        '.claude/settings.json: not run for Claude Code (it runs them itself)',
        '  PreToolUse        Write                     http           not approved  never run',
        '  UserPromptSubmit  *                         prompt         not approved  never run',
        '',
        'Hooks not approved do not run: run `governor hooks trust` in a terminal to read and approve them.',
        '',
        "Problems (until they are fixed, agents' calls that hooks decide are refused):",
        '  .claude/settings.local.json: is not valid JSON (Unexpected token } at line 3)',
        '',
        'Events not every door fires (their hooks run only where the event happens):',
        '  UserPromptSubmit: not fired by MCP, VS Code tools',
        '',
        'Notes:',
        '  .orchestration/hooks.yaml is read for now; move its hooks to .orchestration/hooks.json',
        '',
      ].join('\n'),
    );
  });

  it('cuts a long matcher and last run to fit, never the event or the state, and shows control characters as escapes', async () => {
    const long = spec('long', 'project', '.orchestration/hooks.json\u001b[2K', { type: 'command', command: 'x' }, { event: 'ScopeExpansionRequested', matcher: `mcp__${'very_long_server_name'.repeat(4)}__tool\r` });
    await ports().runLog.record(root, 'sha256:long', { result: `failed: ${'the hook printed something very long '.repeat(3)}`, durationMs: 5, at: '2025-01-01T00:00:00.000Z' });
    const text = hookListingText(await hookListing(root, { hooks: [long], problems: [], notes: [] }, ports()));
    for (const line of text.split('\n').filter(Boolean)) assert.ok([...line].length <= 100, `over 100 columns: ${line}`);
    assert.match(text, /ScopeExpansionRequested {2}mcp__very_long_\S*… {2}command {2}not approved {2}failed: the hook print\S*…\n/);
    assert.match(text, /^\.orchestration\/hooks\.json\\x1b\[2K$/m);
    assert.doesNotMatch(text, /[\u001b\r]/);
  });

  it('says when nothing is declared', async () => {
    assert.equal(hookListingText(await hookListing(root, { hooks: [], problems: [], notes: [] }, ports())), 'No hooks are declared for this workspace.\n');
  });
});
