import { strict as assert } from 'node:assert';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BridgeRequest, NativeCall } from '../../../../src/core/agents/common/nativeCall';
import { MemoryBeforeStash } from '../../../../src/core/bridge/beforeStash';
import { NativeToolBridge } from '../../../../src/core/bridge/nativeToolBridge';
import { createHarness, type Harness } from '../../../support/governorHarness';

/**
 * A change whose post the agent does not send (Gemini CLI's write_file and replace, `unposted`): a resident governor
 * records it itself once the file holds it, before it judges the session's next call, and as its post would have.
 */
describe('NativeToolBridge: changes whose post the agent does not send', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  const request = (phase: BridgeRequest['phase'], id: string, tool: string, calls: NativeCall[], unposted = true): BridgeRequest => ({
    phase,
    session_id: 'gemini:s1',
    agent: { name: 'gemini-cli' },
    key: `gemini:s1:${id}`,
    intent_id: 'auth-refactor',
    calls,
    ...(unposted && phase === 'pre' ? { unposted: true as const } : {}),
    native: { dialect: 'gemini', event: phase === 'pre' ? 'PreToolUse' : 'PostToolUse', session_id: 's1', cwd: h.root, fields: {}, tool_name: tool, tool_input: {} },
  });
  const write = (path: string, content: string): NativeCall[] => [{ tool: 'write_file', input: { path: join(h.root, path), content } }];
  const mutationsOf = (path: string) => h.trace.mutations.filter((m) => m.files.some((f) => f.path === path));

  it('records the write once the file holds it, with no post and not as reconciled; an edit still open when the governor closes is recorded then', async () => {
    h = await createHarness();
    const bridge = new NativeToolBridge(h.governor, new MemoryBeforeStash(), { askHuman: false, resident: true });
    await mkdir(join(h.root, 'src/auth'), { recursive: true });
    const first = await bridge.handle(request('pre', 'w1', 'write_file', write('src/auth/token.ts', 'export const token = 1;\n')));
    assert.equal(first.decision, 'allow', first.reason);
    await writeFile(join(h.root, 'src/auth/token.ts'), 'export const token = 1;\n'); // the tool runs; its post never comes
    for (let i = 0; i < 100 && mutationsOf('src/auth/token.ts').length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const [record, ...more] = mutationsOf('src/auth/token.ts');
    assert.ok(record, 'recorded without a post');
    assert.equal(more.length, 0);
    assert.equal(record.reconciled, undefined);
    assert.equal(record.intent_id, 'auth-refactor');

    const edit = await bridge.handle(request('pre', 'e1', 'replace', [{ tool: 'edit_file', input: { path: join(h.root, 'src/auth/token.ts') }, edits: [{ search: '= 1', replace: '= 2', all: false }] }]));
    assert.equal(edit.decision, 'allow', edit.reason);
    await writeFile(join(h.root, 'src/auth/token.ts'), 'export const token = 2;\n');
    await bridge.close(); // the governor closing completes what is still open
    assert.equal(mutationsOf('src/auth/token.ts').length, 2);
    assert.equal(await readFile(join(h.root, 'src/auth/token.ts'), 'utf8'), 'export const token = 2;\n');
  });

  it("a write the agent's post would have reached a user's PostToolUse hook with is refused until the hooks are installed again", async () => {
    h = await createHarness();
    await writeFile(join(h.root, '.orchestration', 'hooks.json'), JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'write_file', hooks: [{ type: 'command', command: 'true' }] }] } }));
    const bridge = new NativeToolBridge(h.governor, new MemoryBeforeStash(), { askHuman: false, resident: true });
    const refused = await bridge.handle(request('pre', 'w1', 'write_file', write('src/auth/token.ts', 'x\n')));
    assert.equal(refused.decision, 'deny');
    assert.match(refused.reason ?? '', /PostToolUse hook of yours matches write_file.*governor hooks install --agent gemini --workspace/su);
    const posted = await bridge.handle(request('pre', 'w2', 'write_file', write('src/auth/token.ts', 'x\n'), false));
    assert.equal(posted.decision, 'allow', 'the same write whose post comes is judged as ever');
  });
});
