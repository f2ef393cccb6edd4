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
