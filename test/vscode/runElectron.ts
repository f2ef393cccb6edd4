// Runs the same suite as runSuite.ts in desktop VS Code through @vscode/test-electron, which downloads
// VS Code. For machines with internet (a laptop, GitHub Actions; on headless Linux run under xvfb-run).
// The dev and CI machines of this project cannot download it and use runSuite.ts (code-server) instead.
// Usage: npm run build && npm run test:vscode:electron
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { bundleSuite } from './bundleSuite';
import { repoRoot } from './provisioned';

/** The suite asserts 1.139 (the code-server build used here); override to try another desktop build. */
const VSCODE_VERSION = process.env.VSCODE_TEST_VERSION ?? '1.139.1';

async function main(): Promise<number> {
  if (!existsSync(join(repoRoot, 'dist', 'extension.js'))) {
    console.error('vscode tests: dist/extension.js is missing: run `npm run build` first');
    return 1;
  }
  const temp = mkdtempSync(join(tmpdir(), 'ig-vscode-electron-'));
  const extensionTestsPath = await bundleSuite(temp);
  const workspace = join(temp, 'workspace');
  // Tests write into the workspace; a copy keeps demo/workspace clean.
  cpSync(join(repoRoot, 'demo', 'workspace'), workspace, { recursive: true });
  try {
    // runTests resolves with VS Code's exit code; the suite's run() rejects (exit 1) when a test fails.
    return await runTests({
      version: VSCODE_VERSION,
      // The scripted chat model rides along: prompt hooks need a language model and the suite scripts its answers.
      extensionDevelopmentPath: [repoRoot, join(repoRoot, 'test', 'vscode', 'scripted-model')],
      extensionTestsPath,
      extensionTestsEnv: { INTENT_GOVERNOR_TEST_WORKSPACE: workspace },
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--user-data-dir',
        join(temp, 'user-data'),
        '--extensions-dir',
        join(temp, 'extensions'),
      ],
    });
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`vscode tests (electron): ${error instanceof Error ? error.message : String(error)}`);
    console.error('vscode tests (electron): this launcher downloads VS Code; without internet use `npm run test:vscode`');
    process.exit(1);
  },
);
