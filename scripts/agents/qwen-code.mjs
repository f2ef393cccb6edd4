// Qwen Code, pinned: one npm package whose cli-entry.js starts the bundled CLI (chunks/ beside it). Its optional
// native packages (node-pty, audio capture, sharp) are not needed headless, so install scripts stay off.
const VERSION = '0.24.4';

export default {
  name: 'qwen-code',
  version: VERSION,
  /** npm install arguments (into the agent's own folder under .vscode-test/agents/). */
  packages: [`@qwen-code/qwen-code@${VERSION}`],
  /** The binary the tests run, relative to the agent's folder. */
  binary: ['node_modules', '@qwen-code', 'qwen-code', 'cli-entry.js'],
  /** What `<binary> --version` must start with once installed. */
  versionPrefix: VERSION,
};
