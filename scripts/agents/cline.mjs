// Cline CLI, pinned: the npm wrapper (bin/cline, a Node script) plus its per-platform package
// (@cline/cli-<platform>, the compiled binary the wrapper finds by walking node_modules).
import { tmpdir } from 'node:os';

const VERSION = '3.0.65';
const platform = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;

export default {
  name: 'cline',
  version: VERSION,
  packages: [`cline@${VERSION}`, `@cline/cli-${platform}@${VERSION}`],
  binary: ['node_modules', 'cline', 'bin', 'cline'],
  versionPrefix: VERSION,
  /** Its state lives under HOME (~/.cline): the temp dir keeps the real one untouched. */
  versionEnv: { HOME: tmpdir(), CLINE_DIR: tmpdir() },
};
