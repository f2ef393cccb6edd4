import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BridgeRequest, NativeCall } from '../../../../src/core/agents/common/nativeCall';
import { postsAnsweredEarly } from '../../../../src/core/bridge/earlyPosts';
import { PROJECT_HOOKS_FILE } from '../../../../src/core/userHooks/hookLayerFiles';

/** Which posts a resident (the extension, the headless resident) answers before it records them. */
describe('postsAnsweredEarly', () => {
  let root: string;
  let home: string;
  const post = (...calls: NativeCall[]): BridgeRequest => ({ phase: 'post', session_id: 's', agent: { name: 'gemini' }, key: 'k', calls });
  const write: NativeCall = { tool: 'write_file', input: { path: 'src/a.ts', content: 'a' } };
  const edit: NativeCall = { tool: 'edit_file', input: { path: 'src/b.ts' }, edits: [] };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'ig-early-posts-'));
    home = join(root, 'home');
    mkdirSync(join(root, '.orchestration'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a post of writes and edits, at a door with no user hook: answered before it is recorded', () => {
    const early = postsAnsweredEarly(root, home);
    assert.equal(early(post(write)), true);
    assert.equal(early(post(write, edit)), true);
  });

  it('a read, a command, or nothing mapped: recorded before the answer (the session moves on from what it records)', () => {
    const early = postsAnsweredEarly(root, home);
    assert.equal(early(post({ tool: 'read_file', input: { path: 'src/a.ts' } })), false);
    assert.equal(early(post(write, { tool: 'run_command', input: { command: 'ls' } })), false);
    assert.equal(early(post()), false);
  });

  it('a user hook on PostToolUse, or a hook file that cannot be read, waits for the recording; read again once the file changes', () => {
    const early = postsAnsweredEarly(root, home);
    assert.equal(early(post(write)), true);
    const hooks = join(root, PROJECT_HOOKS_FILE);
    writeFileSync(hooks, JSON.stringify({ hooks: { PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'true' }] }] } }));
    assert.equal(early(post(write)), false);
    writeFileSync(hooks, '{ not json');
    assert.equal(early(post(write)), false);
    rmSync(hooks);
    assert.equal(early(post(write)), true);
  });
});
