// The Node.js the project supports at its floor (package.json engines), for CI to run every suite on: the machine's own
// when it is that major, else Node of that major from npm, cached in .vscode-test/node-floor/. Prints the folder to put
// first on PATH (empty when the machine's Node is the floor already); progress goes to stderr.
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNodeFromNpm } from './nodeFromNpm.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(root, '.vscode-test');

/** The major of the lowest version `engines.node` accepts (">=22.13" → 22). */
export function nodeFloor() {
  const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
  const match = /^>=\s*(\d+)(\.\d+){0,2}$/u.exec(range);
  if (!match) throw new Error(`package.json engines.node is ${range}; expected ">=N"`);
  return Number(match[1]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const floor = nodeFloor();
    if (Number(process.versions.node.split('.')[0]) === floor) {
      console.error(`provision-node: this machine's Node.js ${process.version} is the floor`);
    } else {
      mkdirSync(cacheDir, { recursive: true });
      const dir = join(cacheDir, 'node-floor');
      ensureNodeFromNpm({ major: floor, dir, logPath: join(cacheDir, 'provision-node.log'), step: (message) => console.error(`provision-node: ${message}`) });
      console.log(join(dir, 'bin'));
    }
  } catch (error) {
    console.error(`provision-node: FAILED: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
