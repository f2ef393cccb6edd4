// Factory Droid, pinned: its Linux x64 platform package, one bun-compiled binary (bin/droid). The @factory/cli
// wrapper only picks and downloads a platform package in a postinstall, and its 0.225.1 has no 0.225.1 binary in
// the registry, so the binary's package is installed directly; it needs no install script.
import { tmpdir } from 'node:os';

const VERSION = '0.225.2';

export default {
  name: 'droid',
  version: VERSION,
  /** npm install arguments (into the agent's own folder under .vscode-test/agents/). */
  packages: [`@factory/cli-linux-x64@${VERSION}`],
  /** The binary the tests run, relative to the agent's folder. */
  binary: ['node_modules', '@factory', 'cli-linux-x64', 'bin', 'droid'],
  /** What `<binary> --version` must start with once installed. */
  versionPrefix: VERSION,
  /** Airgap mode (no calls to Factory's servers), no auto-update, and a HOME where its ~/.factory may be written. */
  versionEnv: { HOME: tmpdir(), FACTORY_AIRGAP_ENABLED: '1', FACTORY_DROID_AUTO_UPDATE_ENABLED: 'false' },
};
