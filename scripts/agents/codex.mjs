// OpenAI Codex CLI, pinned: the npm wrapper plus its per-platform package (published as a version alias of
// @openai/codex, e.g. 0.169.0-linux-x64), whose vendor/<target>/bin/codex is the native binary.
import { tmpdir } from 'node:os';

const VERSION = '0.169.0';
const TARGETS = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
  'win32-x64': 'x86_64-pc-windows-msvc',
  'win32-arm64': 'aarch64-pc-windows-msvc',
};
const platform = `${process.platform}-${process.arch}`;
const target = TARGETS[platform] ?? 'unsupported-platform';

export default {
  name: 'codex',
  version: VERSION,
  /** npm install arguments (into the agent's own folder under .vscode-test/agents/). */
  packages: [`@openai/codex@${VERSION}`, `@openai/codex-${platform}@npm:@openai/codex@${VERSION}-${platform}`],
  /** The binary the tests run, relative to the agent's folder. */
  binary: ['node_modules', '@openai', `codex-${platform}`, 'vendor', target, 'bin', process.platform === 'win32' ? 'codex.exe' : 'codex'],
  /** What `<binary> --version` must start with once installed. */
  versionPrefix: `codex-cli ${VERSION}`,
  /** --version reads its home: point it at the temp dir, where it writes nothing, so the real ~/.codex stays untouched. */
  versionEnv: { CODEX_HOME: tmpdir() },
};
