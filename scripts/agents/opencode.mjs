// OpenCode, pinned: the npm wrapper plus its per-platform package (opencode-<os>-<arch>), whose bin/opencode is
// the compiled binary (a Bun executable; npm names Windows "windows", not "win32").
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const VERSION = '1.18.33';
const OS = { linux: 'linux', darwin: 'darwin', win32: 'windows' };
const platform = `${OS[process.platform] ?? process.platform}-${process.arch}`;

export default {
  name: 'opencode',
  version: VERSION,
  /** npm install arguments (into the agent's own folder under .vscode-test/agents/). */
  packages: [`opencode-ai@${VERSION}`, `opencode-${platform}@${VERSION}`],
  /** The binary the tests run, relative to the agent's folder. */
  binary: ['node_modules', `opencode-${platform}`, 'bin', process.platform === 'win32' ? 'opencode.exe' : 'opencode'],
  /** What `<binary> --version` must start with once installed. */
  versionPrefix: VERSION,
  /** Even --version creates its data, config, cache and state folders: point them at the temp dir, not the real home. */
  versionEnv: Object.fromEntries(
    [['HOME', ''], ['XDG_CONFIG_HOME', '.config'], ['XDG_DATA_HOME', '.local/share'], ['XDG_CACHE_HOME', '.cache'], ['XDG_STATE_HOME', '.local/state']].map(([name, sub]) => [name, join(tmpdir(), 'opencode-version-home', sub)]),
  ),
};
