// Claude Code, pinned: the npm wrapper plus its per-platform package, whose `claude` is the native binary.
const VERSION = '2.1.330';
const platformPackage = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`;

export default {
  name: 'claude-code',
  version: VERSION,
  /** npm install arguments (into the agent's own folder under .vscode-test/agents/). */
  packages: [`@anthropic-ai/claude-code@${VERSION}`, `${platformPackage}@${VERSION}`],
  /** The binary the tests run, relative to the agent's folder. */
  binary: ['node_modules', ...platformPackage.split('/'), 'claude'],
  /** What `<binary> --version` must start with once installed. */
  versionPrefix: `${VERSION} `,
};
