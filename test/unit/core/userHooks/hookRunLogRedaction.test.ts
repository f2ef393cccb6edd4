import { strict as assert } from 'node:assert';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileHookRunLog } from '../../../../src/core/userHooks/fileHookRunLog';
import { sampleSecrets } from '../../../support/sampleSecrets';

describe('the hook run log keeps no secret a failed hook printed', () => {
  let home: string;
  beforeEach(async () => (home = await mkdtemp(join(tmpdir(), 'ig-runlog-secret-'))));
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('stores a failed run whose reason quotes a token with the token redacted', async () => {
    const dir = join(home, 'hook-runs');
    const log = new FileHookRunLog(dir);
    const secrets = sampleSecrets();
    for (const [i, { text }] of secrets.entries()) {
      await log.record('/work/p', `h${i}`, { result: `failed: exit 2: could not push with ${text}`, durationMs: 5, at: `2026-01-01T00:00:0${i}.000Z` });
    }
    const [file] = (await readdir(dir)).filter((n) => n.endsWith('.json'));
    const text = await readFile(join(dir, file), 'utf8');
    for (const { needles, rule } of secrets) {
      for (const needle of needles) assert.ok(!text.includes(needle), `${rule} is not in the run log`);
    }
    const runs = await log.read('/work/p');
    assert.match(runs.h0.result, /^failed: exit 2: could not push with \[REDACTED:github-token:[0-9a-f]{8}\]$/);
  });
});
