import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finished } from '../../support/childProcesses';
import { headlessHookWorkspace, LOGIN, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { hookFixture, spawnHook } from '../../support/runHook';

/** A GitHub token's shape (secretlint's recommended rules flag it), as an agent's session id. */
const TOKEN = `ghp_${'A1b2C3d4E5'.repeat(3)}abcdef`;

/**
 * The write-ahead journal (`.orchestration/pending/`) keeps what the trace keeps: an agent's session id that is a
 * token is redacted there as in the trace (the same marker), and the change is still recorded once by its post.
 * A real headless hook process (Claude Code's door), pre then post, with no resident.
 */
describe('the pending journal redacts a session id that is a token, as the trace does', function () {
  this.timeout(60_000);
  let w: HeadlessHookWorkspace;

  beforeEach(async () => {
    w = await headlessHookWorkspace({ intent: 'auth-refactor', files: { 'src/auth/login.ts': LOGIN, '.vscode/settings.json': JSON.stringify({ 'intentGovernor.approval': 'destructive-only' }) } });
  });
  afterEach(async () => w.dispose());

  const hook = async (name: string) => {
    const child = spawnHook('claude', ['--timeout-ms', '20000'], { ...w.env, INTENT_GOVERNOR_RESIDENT: 'off' });
    child.stdin.end(hookFixture('claude', name, w.h.root).replaceAll('abc123', TOKEN));
    return finished(child);
  };
  const pendingText = () => {
    const dir = join(w.h.root, '.orchestration', 'pending');
    return readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8')).join('\n');
  };

  it('the pre leaves its entry with the session redacted; the post records the change once, with no token anywhere', async () => {
    const pre = await hook('pre-write-in-scope');
    assert.equal(pre.code, 0, pre.stderr);
    assert.doesNotMatch(pre.stdout, /"permissionDecision":"deny"/u, pre.stdout);
    const journal = pendingText();
    assert.match(journal, /"session_id":"claude:\[REDACTED:github-token:[0-9a-f]{8}\]"/u, journal);
    assert.doesNotMatch(journal, /ghp_/u);
    writeFileSync(join(w.h.root, 'src/auth/token.ts'), 'export const token = 1;\n');
    const post = await hook('post-write-in-scope');
    assert.equal(post.code, 0, post.stderr);
    const records = w.traceRecords();
    assert.equal(records.length, 1, JSON.stringify(records));
    const text = readFileSync(join(w.h.root, '.orchestration', 'agent_trace.jsonl'), 'utf8');
    assert.doesNotMatch(text, /ghp_/u);
    // The journal's marker is the trace's: the same secret, the same per-user key.
    const marker = /\[REDACTED:github-token:[0-9a-f]{8}\]/u.exec(journal)?.[0];
    assert.ok(marker && text.includes(marker), `${marker} not in the trace`);
    assert.doesNotMatch(pendingText(), /ghp_/u);
  });
});
