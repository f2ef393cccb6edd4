// GitHub Copilot CLI, pinned: the npm wrapper plus its per-platform package, whose `copilot` is a native binary that
// unpacks its JavaScript into $XDG_CACHE_HOME/copilot/pkg on first run (about 235 MB). That cache lives in the
// agent's own folder, for `--version` here and for every test run (copilotDriver.ts), never in the real home.
import { fileURLToPath } from 'node:url';

const VERSION = '1.0.102';
const platformPackage = `@github/copilot-${process.platform}-${process.arch}`;

/** Where the binary unpacks itself: beside its install, under .vscode-test/agents/copilot-cli/. */
export const COPILOT_CACHE_HOME = fileURLToPath(new URL('../../.vscode-test/agents/copilot-cli/xdg-cache', import.meta.url));

export default {
  name: 'copilot-cli',
  version: VERSION,
  /** npm install arguments (into the agent's own folder under .vscode-test/agents/). */
  packages: [`@github/copilot@${VERSION}`, `${platformPackage}@${VERSION}`],
  /** The binary the tests run, relative to the agent's folder. */
  binary: ['node_modules', ...platformPackage.split('/'), 'copilot'],
  /** What `<binary> --version` must start with once installed. */
  versionPrefix: `GitHub Copilot CLI ${VERSION}.`,
  /** `--version` unpacks the package: into the agent's folder, with no update check. */
  versionEnv: { XDG_CACHE_HOME: COPILOT_CACHE_HOME, COPILOT_AUTO_UPDATE: 'false' },
};
