// Gemini CLI, pinned: one npm package whose bundle/gemini.js is the whole CLI (node-pty and keytar are optional
// and not needed headless, so install scripts stay off).
const VERSION = '0.61.0';

export default {
  name: 'gemini-cli',
  version: VERSION,
  /** npm install arguments (into the agent's own folder under .vscode-test/agents/). */
  packages: [`@google/gemini-cli@${VERSION}`],
  /** The binary the tests run, relative to the agent's folder. */
  binary: ['node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js'],
  /** What `<binary> --version` must start with once installed. */
  versionPrefix: VERSION,
};
