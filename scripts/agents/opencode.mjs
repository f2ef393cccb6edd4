// OpenCode, pinned: the npm wrapper plus its per-platform package (opencode-<os>-<arch>), whose bin/opencode is
// the compiled binary (a Bun executable; npm names Windows "windows", not "win32").
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
};
