import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createHarness, type Harness } from '../../support/governorHarness';
import { connectGovernorMcp, resultErrorCode } from '../../support/stdioMcpClient';

const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** Complete lines of a log, parsed; a torn last line left by the kill is not a record. */
async function records(path: string): Promise<any[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    });
}

/**
 * No change on disk without a record of it: a `governor mcp` killed with SIGKILL in the middle of a stream of
 * writes leaves no file that the trace does not describe, and the next governor to write reconciles the
 * records whose change never landed.
 */
describe('governor mcp: write-ahead trace under SIGKILL', function () {
  this.timeout(120_000);
  let h: Harness;
  let anchorDir: string;
  let client: Client | undefined;

  beforeEach(async () => {
    h = await createHarness();
    anchorDir = await mkdtemp(join(tmpdir(), 'ig-anchor-'));
  });
  afterEach(async () => {
    await client?.close().catch(() => undefined);
    client = undefined;
    await h.dispose();
    await rm(anchorDir, { recursive: true, force: true });
  });

  it('leaves no file on disk without a trace record, and voids records whose change did not land', async () => {
    client = await connectGovernorMcp(h.root, anchorDir);
    await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
    const pid = (client.transport as StdioClientTransport).pid as number;
    let acknowledged = 0;
    let stop = false;
    const writers = Array.from({ length: 8 }, async (_, lane) => {
      for (let n = 0; !stop; n++) {
        const result = await client!
          .callTool({ name: 'write_file', arguments: { path: `src/auth/f${lane}-${n}.ts`, content: `lane ${lane} write ${n}\n` } })
          .catch(() => undefined);
        if (result === undefined) return;
        if (resultErrorCode(result) === undefined) acknowledged++;
      }
    });
    // Kill mid-stream, once writes are flowing.
    while (acknowledged < 40) await new Promise((resolve) => setTimeout(resolve, 5));
    process.kill(pid, 'SIGKILL');
    stop = true;
    await Promise.all(writers);
    client = undefined;

    const onDisk = (await readdir(join(h.root, 'src/auth'))).filter((name) => name.endsWith('.ts'));
    assert.ok(onDisk.length >= 40, `only ${onDisk.length} files were written before the kill`);
    const traced = new Set((await records(join(h.root, '.orchestration/agent_trace.jsonl'))).flatMap((r) => r.metadata.files.map((f: any) => `${f.path}\0${f.after_hash}`)));
    const untraced: string[] = [];
    for (const name of onDisk) {
      const content = await readFile(join(h.root, 'src/auth', name), 'utf8');
      if (!traced.has(`src/auth/${name}\0${sha(content)}`)) untraced.push(name);
    }
    assert.deepEqual(untraced, [], `${untraced.length} files on disk have no trace record`);

    // The next governor to write reconciles what the dead one left pending.
    client = await connectGovernorMcp(h.root, anchorDir);
    await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
    assert.equal(resultErrorCode(await client.callTool({ name: 'write_file', arguments: { path: 'src/auth/after.ts', content: 'after\n' } })), undefined);
    await client.close();
    client = undefined;
    const landed = new Set(onDisk.map((name) => `src/auth/${name}`));
    const notLanded = (await records(join(h.root, '.orchestration/agent_trace.jsonl'))).filter((r) => r.metadata.kind === 'mutation' && !landed.has(r.files[0].path) && r.files[0].path !== 'src/auth/after.ts');
    const voided = new Set((await records(join(h.root, '.orchestration/governance_log.jsonl'))).filter((r) => r.decision === 'void').map((r) => r.record_id));
    for (const record of notLanded) assert.ok(voided.has(record.id), `record ${record.id} (${record.files[0].path}) describes a change that did not land and was not voided`);
    const pending = await readdir(join(h.root, '.orchestration/pending')).catch(() => []);
    assert.deepEqual(pending.filter((name) => name.endsWith('.json')), []);
  });
});
