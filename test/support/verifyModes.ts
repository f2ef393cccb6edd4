import { lineCheckDefaults } from '../../src/core/trace/parallelLineChecks';

/**
 * The two ways verify checks a log's lines: on the calling thread (every log below 8 MB), and on worker threads
 * (larger ones). A suite run in both gives the same verdicts both ways, however small its logs.
 */
export const VERIFY_MODES = [
  { name: 'lines checked on this thread', minBytes: undefined },
  { name: 'lines checked on worker threads', minBytes: 0 },
] as const;

/** Runs `suite` once per mode, under `title (mode)`. */
export function describeInVerifyModes(title: string, suite: () => void): void {
  for (const mode of VERIFY_MODES) {
    describe(`${title} (${mode.name})`, () => {
      const before = lineCheckDefaults.minBytes;
      beforeEach(() => {
        if (mode.minBytes !== undefined) lineCheckDefaults.minBytes = mode.minBytes;
      });
      afterEach(() => {
        lineCheckDefaults.minBytes = before;
      });
      suite();
    });
  }
}
