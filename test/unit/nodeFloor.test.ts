import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { major, minVersion, satisfies } from 'semver';

const ROOT = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
type LockEntry = { engines?: { node?: string } | string[]; dependencies?: Record<string, string>; devDependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };

/**
 * Mutation testing (npm run test:mutation, CONTRIBUTING.md) is a contributor's tool that CI runs on the newest Node.js
 * 22, and StrykerJS 10 needs Node.js 22.18 (babel 8): the packages only it brings are held to its own floor, not the
 * project's.
 */
const MUTATION_TOOLS = /^@stryker-mutator\//u;
const MUTATION_TOOLS_NODE = '22.18.0';

/** The lock's entries the root reaches without going through the mutation tools, as Node resolves them. */
function reachedWithoutMutationTools(): Set<string> {
  const seen = new Set<string>();
  const resolve = (from: string, name: string): string | undefined => {
    for (let at = from; ; at = at.includes('/node_modules/') ? at.slice(0, at.lastIndexOf('/node_modules/')) : '') {
      const path = `${at ? `${at}/` : ''}node_modules/${name}`;
      if (lock.packages[path]) return path;
      if (at === '') return undefined;
    }
  };
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const entry = lock.packages[path];
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...(path === '' ? entry.devDependencies : {}) })) {
      const found = path === '' && MUTATION_TOOLS.test(name) ? undefined : resolve(path, name);
      if (found) visit(found);
    }
  };
  visit('');
  return seen;
}

/** The Node.js the project says it supports is one its dependencies support, and the one CI runs the suites on. */
describe('the supported Node.js (package.json engines)', () => {
  const floor = minVersion(manifest.engines.node)?.version ?? '';

  it('is a maintained line (Node.js 20 reached its end of life in April 2026): 22 or later', () => {
    assert.ok(major(floor) >= 22, `engines.node is ${manifest.engines.node}`);
  });

  it('is supported by every locked package that declares its Node.js (npm install on it warns of none but the mutation tools)', () => {
    const reached = reachedWithoutMutationTools();
    const unsupported = Object.entries(lock.packages).flatMap(([name, entry]) => {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      const needed = reached.has(name) ? floor : MUTATION_TOOLS_NODE;
      return name && range && !satisfies(needed, range) ? [`${name.replace(/^node_modules\//u, '')} needs ${range}${needed === floor ? '' : ` (mutation testing runs on ${needed})`}`] : [];
    });
    assert.deepEqual(unsupported, [], `Node.js ${floor} is below what these need`);
  });

  it('is what scripts/provision-node.mjs provisions for CI (.ci/run puts it first on PATH)', () => {
    const script = "import('./scripts/provision-node.mjs').then((m) => console.log(m.nodeFloor()))";
    assert.equal(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }).trim(), String(major(floor)));
    assert.match(readFileSync(join(ROOT, '.ci', 'run'), 'utf8'), /provision-node\.mjs/);
  });

  it('in CI, runs this suite: the floor\'s major, at or above the floor', function () {
    if (!process.env.CI) this.skip(); // a contributor's machine may run a newer Node.js
    assert.equal(major(process.version), major(floor), `CI runs ${process.version}`);
    assert.ok(satisfies(process.version, manifest.engines.node), `CI runs ${process.version}, below ${manifest.engines.node}`);
  });
});
