// The VS Code test suite entry, bundled by test/vscode/bundleSuite.ts into one CommonJS file that
// runs inside a real extension host. Two launchers use it: the harness extension under code-server
// (runSuite.ts) and @vscode/test-electron's --extensionTestsPath (runElectron.ts).
import Mocha from 'mocha';
import { specFiles, type SpecFile } from 'intent-governor:vscode-spec-files';
import { collectingReporter } from './collectingReporter';

export interface SuiteResult {
  passes: number;
  failures: number;
  pending: number;
  /** Spec-style report, failures with their stacks at the end. */
  output: string;
}

/** Rejection of run() when a test failed; carries the whole result so the harness can still report it. */
export class SuiteFailed extends Error {
  constructor(readonly result: SuiteResult) {
    super(`${result.failures} VS Code test(s) failed\n${result.output}`);
  }
}

/**
 * Runs every bundled spec. Resolves with the result when all pass; rejects with SuiteFailed otherwise,
 * because @vscode/test-electron reads a rejection as failure.
 */
export async function run(): Promise<SuiteResult> {
  const lines: string[] = [];
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: collectingReporter(lines) });
  // VSCODE_TEST_GREP (set on the runner's command line, passed through the server) runs a subset.
  const grep = process.env.VSCODE_TEST_GREP;
  if (grep) mocha.grep(grep);
  // What mocha.loadFiles does for files on disk, done for bundled modules: globals first, then evaluate.
  for (const spec of specFiles) {
    mocha.suite.emit('pre-require', globalThis, spec.name, mocha);
    mocha.suite.emit('require', loadOrReport(mocha, spec), spec.name, mocha);
    mocha.suite.emit('post-require', globalThis, spec.name, mocha);
  }
  let runner: Mocha.Runner | undefined;
  const failures = await new Promise<number>((resolve) => {
    runner = mocha.run(resolve);
  });
  // The Base reporter attaches stats to the runner; the failure count from mocha is the fallback.
  const stats = runner?.stats ?? { passes: 0, failures: Math.max(failures, 1), pending: 0 };
  const result: SuiteResult = {
    passes: stats.passes,
    failures: stats.failures,
    pending: stats.pending,
    output: `${lines.join('\n')}\n`,
  };
  // Under test-electron the host's console is the terminal, so print the report there too.
  console.log(`${result.output}vscode: ${result.passes} passed, ${result.failures} failed, ${result.pending} skipped`);
  if (result.failures > 0) throw new SuiteFailed(result);
  return result;
}

/** A spec that throws while loading becomes one failing test, so the other specs still run. */
function loadOrReport(mocha: Mocha, spec: SpecFile): unknown {
  try {
    return spec.load();
  } catch (error) {
    const suite = Mocha.Suite.create(mocha.suite, spec.name);
    suite.addTest(
      new Mocha.Test('loads', () => {
        throw error;
      }),
    );
    return undefined;
  }
}
