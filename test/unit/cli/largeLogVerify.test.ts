import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningKey, recordSignerFor } from '../../../src/core/signing/signingKey';
import { publishSigner } from '../../../src/core/signing/workspaceSigners';
import { canonicalJson } from '../../../src/core/trace/traceChain';
import { checkLinesInParallel } from '../../../src/core/trace/parallelLineChecks';
import { bundledScript } from '../../support/bundledScript';
import { runGovernor } from '../../support/runGovernor';
import { writeSyntheticTrace } from '../../support/syntheticTrace';

const TRACE = '.orchestration/agent_trace.jsonl';
const RECORDS = 7_000;

/**
 * A log past the size where verify checks lines on worker threads, through the bundled CLI with the bundled
 * worker script beside it (as dist/ ships them): the same verdicts, and a tampered line named by its number.
 */
describe('governor trace verify of a large log (lines checked on worker threads)', function () {
  this.timeout(120_000);
  let root: string;
  let base: string;
  let worker: string;

  before(() => {
    // Beside the CLI bundle runGovernor builds, under the name the CLI looks for.
    worker = bundledScript(join(__dirname, '..', '..', '..', 'src', 'core', 'trace', 'lineCheckWorker.ts'));
  });
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'ig-large-verify-'));
    root = join(base, 'ws');
    const keys = [generateSigningKey('alice'), generateSigningKey('bob')];
    for (const key of keys) await publishSigner(root, key.name, key.public_key);
    await writeSyntheticTrace(join(root, TRACE), RECORDS, { signers: keys.map(recordSignerFor), runLength: 3 });
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  const verify = () => runGovernor(['trace', 'verify', '--workspace', root], { anchorDir: join(base, 'anchors'), home: join(base, 'home') });

  it('the bundled worker script checks a share of the log', async () => {
    const path = join(root, TRACE);
    const { size } = await stat(path);
    assert.ok(size > 8 << 20, `the log is ${size} bytes, below the size that uses workers`);
    let lines = 0;
    let good = 0;
    for await (const batch of checkLinesInParallel(path, 'trace', size, 2, worker)) {
      lines += batch.length;
      good += batch.filter((line) => line.canonical && line.hashMatches && line.holder.signature !== undefined).length;
    }
    assert.equal(lines, RECORDS);
    assert.equal(good, RECORDS);
  });

  it('verifies every record and signature, and names a record edited in the second half by its line', async () => {
    const ok = await verify();
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, new RegExp(`verified \\(${RECORDS} records`));
    assert.match(ok.stdout, /alice/);
    assert.match(ok.stdout, /bob/);

    const lines = (await readFile(join(root, TRACE), 'utf8')).trim().split('\n');
    const at = 5_321;
    const record = JSON.parse(lines[at - 1]) as { files: { path: string }[] };
    record.files[0].path = 'src/other/evil.ts';
    lines[at - 1] = canonicalJson(record);
    await writeFile(join(root, TRACE), `${lines.join('\n')}\n`);
    const bad = await verify();
    assert.equal(bad.code, 1, bad.stdout + bad.stderr);
    assert.match(bad.stdout, new RegExp(`TAMPERED at line ${at}: line ${at} does not match its hash`));
  });
});
