import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOOK_TIMINGS_ENV, hookTimingsRecorder, readHookTimings } from '../../../../src/core/bridge/hookTimings';

describe('hook timings (INTENT_GOVERNOR_HOOK_TIMINGS, what the benchmarks read)', () => {
  let temp: string;
  beforeEach(() => {
    temp = mkdtempSync(join(tmpdir(), 'ig-hook-timings-'));
  });
  afterEach(() => rmSync(temp, { recursive: true, force: true }));

  it('records nothing when no file is named', () => {
    assert.equal(hookTimingsRecorder({}), undefined);
  });

  it('reads back each answer as it was recorded, with the write and the CPU time only where the door measured them', () => {
    const file = join(temp, 'timings.tsv');
    const record = hookTimingsRecorder({ [HOOK_TIMINGS_ENV]: file });
    assert.ok(record);
    record('gemini', 'PreToolUse', 1.23456, { writeMs: 0.2, cpuMs: 1.1 });
    record('gemini', 'PostToolUse', 0.3, { cpuMs: 0.29 });
    record('PreToolUse', 'Write', 1.9);
    assert.deepEqual(readHookTimings(file), [
      { what: 'gemini', which: 'PreToolUse', ms: 1.235, writeMs: 0.2, cpuMs: 1.1 },
      { what: 'gemini', which: 'PostToolUse', ms: 0.3, cpuMs: 0.29 },
      { what: 'PreToolUse', which: 'Write', ms: 1.9 },
    ]);
  });

  it('a file that is not there reads as no timings', () => {
    assert.deepEqual(readHookTimings(join(temp, 'none.tsv')), []);
  });
});
