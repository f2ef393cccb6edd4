import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { BridgeRequest } from '../../../../src/core/agents/common/nativeCall';
import { MemoryBeforeStash } from '../../../../src/core/bridge/beforeStash';
import { NativeToolBridge } from '../../../../src/core/bridge/nativeToolBridge';
import { createHarness, type Harness } from '../../../support/governorHarness';

describe('NativeToolBridge', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('an agent’s SessionEnd ends that session’s standing approvals and no other', async () => {
    h = await createHarness();
    const standing = h.governor.services.standingApprovals;
    standing.grant('claude:abc', 'auth-refactor', 'modal:alice', { owned_scope: ['src/auth/**'], status: 'IN_PROGRESS' });
    standing.grant('claude:other', 'auth-refactor', 'modal:alice', { owned_scope: ['src/auth/**'], status: 'IN_PROGRESS' });
    const bridge = new NativeToolBridge(h.governor, new MemoryBeforeStash(), { askHuman: true });
    await bridge.handle({ phase: 'end', session_id: 'claude:abc', agent: { name: 'claude-code' }, key: 'end', calls: [] });
    assert.deepEqual(standing.list().map((a) => a.session), ['claude:other']);
  });

  it('refuses an agent’s own Write before it runs while a person has unsaved edits of that file in an editor', async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': 'export function login() {}\n' } });
    h.governor.services.sessions.bindIntent('claude:abc', 'auth-refactor');
    const file = join(h.root, 'src/auth/login.ts');
    const write = (id: string): BridgeRequest => ({
      phase: 'pre',
      session_id: 'claude:abc',
      agent: { name: 'claude-code' },
      key: `claude:abc:${id}`,
      calls: [{ tool: 'write_file', input: { path: file, content: 'export function login() { return true; }\n' } }],
      native: { dialect: 'claude', event: 'PreToolUse', session_id: 'abc', cwd: h.root, fields: {}, tool_name: 'Write', tool_input: { file_path: file, content: 'x' } },
    });
    const bridge = new NativeToolBridge(h.governor, new MemoryBeforeStash(), { askHuman: false });
    assert.equal((await bridge.handle(write('toolu_1'))).decision, 'allow', 'with every editor saved, the write may go ahead');
    h.governor.services.workspace.hasUnsavedChanges = async (abs) => abs === file;
    const answer = await bridge.handle(write('toolu_2'));
    assert.equal(answer.decision, 'deny');
    assert.match(answer.reason ?? '', /^\[STALE_FILE\] A human has unsaved edits to src\/auth\/login\.ts in an editor/);
  });
});
