import Mocha from 'mocha';
import { sourceMappedStack } from './sourceMappedStack';

const { EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_FAIL, EVENT_TEST_PASS, EVENT_TEST_PENDING } =
  Mocha.Runner.constants;

/**
 * A spec-style reporter that writes into `lines` instead of stdout: inside the extension host stdout
 * goes to a log nobody reads, so the text travels back to the runner in the results file.
 */
export function collectingReporter(lines: string[]): Mocha.ReporterConstructor {
  return class CollectingReporter extends Mocha.reporters.Base {
    constructor(runner: Mocha.Runner, options: Mocha.MochaOptions) {
      super(runner, options);
      let depth = 0;
      const failed: Array<{ title: string; error: unknown }> = [];
      const say = (text: string) => lines.push(`${'  '.repeat(depth)}${text}`);
      runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
        if (suite.root) return;
        say(suite.title);
        depth++;
      });
      runner.on(EVENT_SUITE_END, (suite: Mocha.Suite) => {
        if (!suite.root) depth--;
      });
      runner.on(EVENT_TEST_PASS, (test: Mocha.Test) => say(`✔ ${test.title} (${test.duration ?? 0} ms)`));
      runner.on(EVENT_TEST_PENDING, (test: Mocha.Test) => say(`- ${test.title} (skipped)`));
      runner.on(EVENT_TEST_FAIL, (test: Mocha.Test, error: unknown) => {
        failed.push({ title: test.fullTitle(), error });
        say(`${failed.length}) ${test.title}`);
      });
      runner.once(EVENT_RUN_END, () => {
        failed.forEach(({ title, error }, index) => {
          lines.push('', `${index + 1}) ${title}:`, indent(describeError(error)));
        });
      });
    }
  };
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ? sourceMappedStack(error.stack) : `${error.name}: ${error.message}`;
  return String(error);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `   ${line}`)
    .join('\n');
}
