import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createHarness, type Harness } from '../../support/governorHarness';
import { runGovernor } from '../../support/runGovernor';
import { connectGovernorMcp, resultErrorCode } from '../../support/stdioMcpClient';

const TRACE = '.orchestration/agent_trace.jsonl';

/**
 * Only a line whose bytes are the canonical JSON of its record is accepted: the record a signature covers is
 * then the record every reader sees, whichever duplicate a JSON parser keeps. Every step is a real process.
 */
describe('strict verification: a signed line that is not canonical is tampering', function () {
  this.timeout(120_000);
  let h: Harness;
  let base: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': 'export function login() {}\n' } });
    base = await mkdtemp(join(tmpdir(), 'ig-strict-'));
    env = { INTENT_GOVERNOR_HOME: join(base, 'home') };
    const keys = await governor(join(base, 'anchors'), 'keys', 'init', '--name', 'alice');
    assert.equal(keys.code, 0, keys.stdout + keys.stderr);
    const client: Client = await connectGovernorMcp(h.root, join(base, 'anchors'), ['--approve', 'always'], 'mcp-test-agent', env as Record<string, string>);
    try {
      await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
      for (const n of [1, 2]) {
        assert.equal(resultErrorCode(await client.callTool({ name: 'write_file', arguments: { path: `src/auth/file${n}.ts`, content: `export const n = ${n};\n` } })), undefined);
      }
    } finally {
      await client.close();
    }
  });
  after(async () => {
    await h.dispose();
    await rm(base, { recursive: true, force: true });
  });

  const governor = (anchorDir: string, ...args: string[]) => runGovernor([...args, '--workspace', h.root], { anchorDir, home: join(base, 'os-home'), env });

  /** Rewrites the last line of the trace with `edit`, runs verify and the gate with and without this machine's anchor, restores it. */
  async function judged(edit: (line: string) => string): Promise<{ verify: string[]; check: string[]; codes: number[] }> {
    const path = join(h.root, TRACE);
    const original = await readFile(path, 'utf8');
    const lines = original.trimEnd().split('\n');
    const edited = edit(lines[1]);
    await writeFile(path, `${lines[0]}\n${edited}\n`);
    try {
      const verify: string[] = [];
      const check: string[] = [];
      const codes: number[] = [];
      for (const anchorDir of [join(base, 'anchors'), join(base, `no-anchor-${Math.random()}`)]) {
        const v = await governor(anchorDir, 'trace', 'verify');
        const c = await governor(anchorDir, 'check', '--require-signatures');
        verify.push(v.stdout);
        check.push(c.stdout);
        codes.push(v.code ?? -1, c.code ?? -1);
      }
      return { verify, check, codes };
    } finally {
      await writeFile(path, original);
    }
  }

  it('the untouched log verifies and passes the gate, with and without the anchor', async () => {
    const all = await judged((line) => line);
    assert.ok(all.codes.every((code) => code === 0), JSON.stringify(all));
  });

  it('a second "path" key before the real one and the signature pair written twice: TAMPERED, not canonical at line 2, and the gate fails', async () => {
    const { verify, check, codes } = await judged((line) => {
      const withPath = line.replace('"path":"', '"path":"src/other/evil.ts","path":"');
      const pair = /"signature":\{"key_id":"[^"]+","sig":"[^"]+"\}/.exec(withPath)?.[0] as string;
      return withPath.replace(pair, `${pair},${pair}`);
    });
    assert.deepEqual(codes.map((c) => c !== 0), [true, true, true, true], JSON.stringify({ verify, check }));
    for (const out of verify) assert.match(out, /agent_trace\.jsonl: TAMPERED at line 2: not canonical at line 2/);
    for (const out of check) assert.match(out, /FAIL/);
  });

  for (const [name, edit] of [
    ['reordered keys', (line: string) => line.replace(/^\{"files":(\[.*?\]),"id":("[^"]+")/, '{"id":$2,"files":$1')],
    ['whitespace between tokens', (line: string) => line.replace('"id":', '"id": ')],
    ['a key repeated with the same value', (line: string) => line.replace('"id":', '"version":"1.0","id":')],
    ['an escape the writer would not write', (line: string) => line.replace('"tool":{"name":"intent-governor"', '"tool":{"name":"intent\\u002dgovernor"')],
  ] as const) {
    it(`${name}: not canonical, so TAMPERED with or without the anchor`, async () => {
      const { verify, codes } = await judged(edit);
      assert.deepEqual(codes.map((c) => c !== 0), [true, true, true, true], verify.join('\n'));
      for (const out of verify) assert.match(out, /TAMPERED at line 2: not canonical at line 2/);
    });
  }
});
