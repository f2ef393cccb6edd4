import { strict as assert } from 'node:assert';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { claudeRouting, routingText } from '../../../src/core/agents/claude/claudeRouting';
import { createHarness, type Harness } from '../../support/governorHarness';
import { connectGovernorMcp, resultText } from '../../support/stdioMcpClient';

const LOGIN = 'export function login() {\n  return true;\n}\n';
/** What `governor hooks install --agent claude` writes into its hooks' input when no user hook needs more. */
const NARROW = routingText(claudeRouting({ hooks: [], unreadable: false }));

interface TraceRecord {
  files: { path: string }[];
  metadata: { invocation_id?: string; reconciled?: string; tool?: string };
}

/**
 * The resident governor completes an allowed Write or Edit itself when the installed matchers do not send its
 * PostToolUse: the same record a post makes, in the trace's order, never twice, and never before the tool wrote.
 */
describe("the resident governor completes the native changes whose post Claude Code does not send", function () {
  this.timeout(30_000);
  let h: Harness;
  let anchorDir: string;
  let home: string;
  let client: Client | undefined;

  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': LOGIN } });
    anchorDir = await mkdtemp(join(tmpdir(), 'ig-anchor-'));
    home = join(anchorDir, 'home');
    await mkdir(home, { recursive: true });
    client = await connectGovernorMcp(h.root, anchorDir, ['--agent', 'claude', '--intent', 'auth-refactor'], 'claude-code', { INTENT_GOVERNOR_HOME: home });
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await h.dispose();
    await rm(anchorDir, { recursive: true, force: true });
  });

  /** `routing: null`: hooks installed before routing existed, whose input has none. */
  const hook = async (fields: Record<string, unknown>, routing: string | null = NARROW): Promise<string> => {
    const args: Record<string, unknown> = { session_id: 'claude-1', cwd: h.root, ...fields, ...(routing !== null ? { routing } : {}) };
    if (typeof args.tool_input === 'object') args.tool_input = JSON.stringify(args.tool_input);
    return resultText(await client!.callTool({ name: 'agent_hook', arguments: args }));
  };
  const write = (id: string, path: string, content: string, extra: Record<string, unknown> = {}) => ({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_use_id: id, tool_input: { file_path: join(h.root, path), content }, ...extra });
  const records = async (): Promise<TraceRecord[]> =>
    (await readFile(join(h.root, '.orchestration', 'agent_trace.jsonl'), 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as TraceRecord);
  const recordsOf = async (path: string) => (await records()).filter((r) => r.files[0]?.path === path);
  const pending = () => (existsSync(join(h.root, '.orchestration', 'pending')) ? readdirSync(join(h.root, '.orchestration', 'pending')).filter((n) => n.startsWith('native.')) : []);
  const eventually = async (what: string, check: () => Promise<boolean>) => {
    for (let i = 0; i < 100; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail(`never: ${what}`);
  };

  it('a Write is recorded once the file holds it, with no PostToolUse, and its pending entry is gone', async () => {
    assert.equal(await hook(write('t1', 'src/auth/a.ts', 'export const a = 1;\n')), '{}');
    assert.equal(pending().length, 1, 'the write-ahead entry is on disk before the answer');
    assert.deepEqual(await recordsOf('src/auth/a.ts'), [], 'nothing is recorded before the tool wrote');
    await writeFile(join(h.root, 'src/auth/a.ts'), 'export const a = 1;\n');
    await eventually('the Write is recorded', async () => (await recordsOf('src/auth/a.ts')).length === 1);
    const [record] = await recordsOf('src/auth/a.ts');
    assert.equal(record.metadata.reconciled, undefined, 'recorded as its post would have, not as a reconciliation');
    await eventually('the pending entry is completed', async () => pending().length === 0);
  });

  it('a Write into a folder the tool creates (nothing to watch yet) is recorded too, without waiting for the next event', async () => {
    assert.equal(await hook(write('t1', 'src/auth/made/here/a.ts', 'a\n')), '{}');
    await mkdir(join(h.root, 'src/auth/made/here'), { recursive: true });
    await writeFile(join(h.root, 'src/auth/made/here/a.ts'), 'a\n');
    await eventually('the Write is recorded', async () => (await recordsOf('src/auth/made/here/a.ts')).length === 1);
  });

  it('an Edit the tool applied differently from what it asked is recorded before the same agent’s next call is judged, which then builds on it', async () => {
    await hook({ hook_event_name: 'PreToolUse', tool_name: 'Read', tool_use_id: 'r1', tool_input: { file_path: join(h.root, 'src/auth/login.ts') } });
    await hook({ hook_event_name: 'PostToolUse', tool_name: 'Read', tool_use_id: 'r1', tool_input: { file_path: join(h.root, 'src/auth/login.ts') }, tool_response: '{}' });
    const edit = { file_path: join(h.root, 'src/auth/login.ts'), old_string: 'return true', new_string: 'return false' };
    assert.equal(await hook({ hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_use_id: 'e1', tool_input: edit }), '{}');
    // Not byte for byte what the edit asked (the watcher waits for that): only the agent's next event completes it.
    await writeFile(join(h.root, 'src/auth/login.ts'), LOGIN.replace('return true', 'return false').replace(/\n/g, '\r\n'));
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(await recordsOf('src/auth/login.ts'), []);
    const second = { file_path: join(h.root, 'src/auth/login.ts'), old_string: 'return false', new_string: 'return 1' };
    assert.equal(await hook({ hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_use_id: 'e2', tool_input: second }), '{}', 'judged against its own first edit, not STALE_FILE');
    assert.equal((await recordsOf('src/auth/login.ts')).length, 1, 'the first edit was recorded before the second was judged');
  });

  it("another agent's event completes only an exact write; that agent's Stop completes the rest, a failed tool's post completes its own", async () => {
    await hook(write('t1', 'src/auth/b.ts', 'b\n', { agent_id: 'sub-1' }));
    await writeFile(join(h.root, 'src/auth/b.ts'), 'b, then a person\n');
    await hook({ hook_event_name: 'UserPromptSubmit', prompt: 'go on' });
    assert.deepEqual(await recordsOf('src/auth/b.ts'), [], 'the main agent moving on says nothing about the subagent’s tool');
    await hook({ hook_event_name: 'SubagentStop', agent_id: 'sub-1', agent_type: 'general-purpose' });
    assert.equal((await recordsOf('src/auth/b.ts')).length, 1, "the subagent's turn is over: its change is recorded");
    await hook(write('t2', 'src/auth/c.ts', 'c\n'));
    await hook({ hook_event_name: 'PostToolUseFailure', tool_name: 'Write', tool_use_id: 't2', tool_input: { file_path: join(h.root, 'src/auth/c.ts'), content: 'c\n' }, error: 'disk full' });
    await hook({ hook_event_name: 'Stop', stop_hook_active: 'false' });
    assert.deepEqual(await recordsOf('src/auth/c.ts'), [], 'nothing was written: nothing recorded');
    assert.equal(pending().length, 0);
  });

  it('hooks installed before routing (no routing in their input) get every post: nothing is completed without it', async () => {
    await hook(write('t1', 'src/auth/d.ts', 'd\n'), null);
    await writeFile(join(h.root, 'src/auth/d.ts'), 'd\n');
    await hook({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 'b1', tool_input: { command: 'true' } }, null);
    assert.deepEqual(await recordsOf('src/auth/d.ts'), []);
    await hook({ hook_event_name: 'PostToolUse', tool_name: 'Write', tool_use_id: 't1', tool_input: { file_path: join(h.root, 'src/auth/d.ts'), content: 'd\n' }, tool_response: '{}' }, null);
    assert.equal((await recordsOf('src/auth/d.ts')).length, 1);
  });

  it('a post that comes after all for a change the governor completed (a hand-edited matcher, a late failure) records nothing twice', async () => {
    const input = { file_path: join(h.root, 'src/auth/g.ts'), content: 'g\n' };
    await hook(write('t1', 'src/auth/g.ts', 'g\n'));
    await writeFile(join(h.root, 'src/auth/g.ts'), 'g\n');
    await eventually('the Write is recorded', async () => (await recordsOf('src/auth/g.ts')).length === 1);
    assert.equal(await hook({ hook_event_name: 'PostToolUse', tool_name: 'Write', tool_use_id: 't1', tool_input: input, tool_response: '{}' }), '{}');
    assert.equal(await hook({ hook_event_name: 'PostToolUseFailure', tool_name: 'Write', tool_use_id: 't1', tool_input: input, error: 'late' }), '{}');
    assert.equal((await recordsOf('src/auth/g.ts')).length, 1);
  });

  it("a Read's post is answered once the read is recorded: a person's save right after the answer is STALE_FILE for the next edit", async () => {
    const read = { file_path: join(h.root, 'src/auth/login.ts') };
    await hook({ hook_event_name: 'PreToolUse', tool_name: 'Read', tool_use_id: 'r1', tool_input: read });
    assert.equal(await hook({ hook_event_name: 'PostToolUse', tool_name: 'Read', tool_use_id: 'r1', tool_input: read, tool_response: '{}' }), '{}');
    await writeFile(join(h.root, 'src/auth/login.ts'), `${LOGIN}// saved by a person\n`);
    const edit = await hook({ hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_use_id: 'e1', tool_input: { file_path: read.file_path, old_string: 'return true', new_string: 'return false' } });
    assert.match(edit, /"permissionDecision":"deny".*STALE_FILE/);
  });

  it("the same while the governor is still recording a Write it completed: the read is not recorded after the person's save", async () => {
    // The Write lands between the Read's pre and post, so its record is being written when the Read's post comes.
    await hook(write('t0', 'src/auth/x.ts', 'x\n'));
    const read = { file_path: join(h.root, 'src/auth/login.ts') };
    await hook({ hook_event_name: 'PreToolUse', tool_name: 'Read', tool_use_id: 'r1', tool_input: read });
    await writeFile(join(h.root, 'src/auth/x.ts'), 'x\n');
    assert.equal(await hook({ hook_event_name: 'PostToolUse', tool_name: 'Read', tool_use_id: 'r1', tool_input: read, tool_response: '{}' }), '{}');
    await writeFile(join(h.root, 'src/auth/login.ts'), `${LOGIN}// saved by a person\n`);
    const edit = await hook({ hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_use_id: 'e1', tool_input: { file_path: read.file_path, old_string: 'return true', new_string: 'return false' } });
    assert.match(edit, /"permissionDecision":"deny".*STALE_FILE/);
    assert.equal((await recordsOf('src/auth/x.ts')).length, 1);
  });

  it('a change still open when Claude Code closes the server is recorded before the governor exits', async () => {
    await hook(write('t1', 'src/auth/e.ts', 'e\n'));
    await writeFile(join(h.root, 'src/auth/e.ts'), 'e, not as asked\n');
    await client!.close();
    client = undefined;
    await eventually('the change is recorded on close', async () => (await recordsOf('src/auth/e.ts')).length === 1);
  });

  it("a hook of the user's added since install that the matchers would not send is refused: every tool call and prompt, until the hooks are installed again", async () => {
    await writeFile(join(home, 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'ToolSearch', hooks: [{ type: 'command', command: 'true' }] }] } }));
    const refused = await hook(write('t1', 'src/auth/f.ts', 'f\n'));
    assert.match(refused, /"permissionDecision":"deny".*your hooks changed since `governor hooks install --agent claude`.*PreToolUse of ToolSearch.*Run `governor hooks install --agent claude --workspace /);
    assert.match(await hook({ hook_event_name: 'UserPromptSubmit', prompt: 'hi' }), /"decision":"block"/);
    const reinstalled = routingText(claudeRouting({ hooks: [{ event: 'PreToolUse', matcher: 'ToolSearch' }], unreadable: false }));
    assert.equal(await hook(write('t2', 'src/auth/f.ts', 'f\n'), reinstalled), '{}', 'the hooks of a new install route it');
  });
});
