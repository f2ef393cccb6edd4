import { strict as assert } from 'node:assert';
import { RefreshSchedule } from '../../../../src/core/intentMap/refreshSchedule';

/** A job that records each run and can be held open, so a test decides when a run ends. */
function heldJob() {
  const runs: number[] = [];
  let release: (() => void) | undefined;
  let active = 0;
  let overlapped = false;
  return {
    runs,
    get overlapped() {
      return overlapped;
    },
    job: async () => {
      active += 1;
      overlapped ||= active > 1;
      runs.push(runs.length + 1);
      await new Promise<void>((resolve) => (release = resolve));
      active -= 1;
    },
    finishRun: () => release?.(),
  };
}

describe('RefreshSchedule', () => {
  it('runs a burst of requests once', async () => {
    let runs = 0;
    const schedule = new RefreshSchedule(async () => void (runs += 1), 60_000);
    for (let i = 0; i < 50; i += 1) schedule.request();
    await schedule.flush();
    assert.equal(runs, 1);
    await schedule.flush();
    assert.equal(runs, 1, 'nothing pending: flush runs nothing');
  });

  it('runs once more for requests that arrive during a run, never two runs at once', async () => {
    const held = heldJob();
    const schedule = new RefreshSchedule(held.job, 60_000);
    schedule.request();
    const first = schedule.flush();
    await Promise.resolve();
    schedule.request();
    schedule.request();
    const second = schedule.flush();
    held.finishRun();
    await new Promise((resolve) => setImmediate(resolve));
    held.finishRun();
    await Promise.all([first, second]);
    assert.deepEqual(held.runs, [1, 2]);
    assert.equal(held.overlapped, false);
  });
});
