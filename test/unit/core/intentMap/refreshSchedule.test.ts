import { strict as assert } from 'node:assert';
import { RefreshSchedule, type ScheduleTimers } from '../../../../src/core/intentMap/refreshSchedule';

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

/** A clock the test moves by hand: timers fire, in order, when it passes them. */
class ManualTimers implements ScheduleTimers {
  private time = 0;
  private next = 0;
  private readonly due = new Map<number, { at: number; run: () => void }>();
  now(): number {
    return this.time;
  }
  set(run: () => void, ms: number): unknown {
    this.next += 1;
    this.due.set(this.next, { at: this.time + ms, run });
    return this.next;
  }
  clear(handle: unknown): void {
    this.due.delete(handle as number);
  }
  /** Moves the clock on by `ms`, firing what falls due on the way. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const [id, first] = [...this.due].sort((a, b) => a[1].at - b[1].at)[0] ?? [];
      if (first === undefined || first.at > end) break;
      this.due.delete(id as number);
      this.time = first.at;
      first.run();
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.time = end;
  }
}

describe('RefreshSchedule', () => {
  /** A schedule with a 250 ms delay on a hand-moved clock, the times of its runs, and an agent's calls every 100 ms (each records a change). */
  function agentCalls() {
    const timers = new ManualTimers();
    const runs: number[] = [];
    const schedule = new RefreshSchedule(async () => void runs.push(timers.now()), 250, timers);
    const calls = async (count: number) => {
      for (let i = 0; i < count; i += 1) {
        schedule.request();
        await timers.advance(100);
      }
    };
    return { timers, runs, calls };
  }

  it('runs once the requests have paused for its delay, not while they keep coming', async () => {
    const { timers, runs, calls } = agentCalls();
    await calls(10); // for a second
    assert.deepEqual(runs, [], 'a run in the middle of the calls');
    await timers.advance(1_000);
    assert.deepEqual(runs, [900 + 250], 'one run, a delay after the last call');
  });

  it('runs within ten delays of the first request when the requests never pause', async () => {
    const { runs, calls } = agentCalls();
    await calls(60);
    assert.deepEqual(runs, [2_500, 5_000], 'not at most ten delays apart');
  });

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
