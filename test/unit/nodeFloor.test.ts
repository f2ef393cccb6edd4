import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { major, minVersion, satisfies } from 'semver';

const ROOT = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[] }> };

/** The Node.js the project says it supports is one its dependencies support, and the one CI runs the suites on. */
describe('the supported Node.js (package.json engines)', () => {
  const floor = minVersion(manifest.engines.node)?.version ?? '';

  it('is a maintained line (Node.js 20 reached its end of life in April 2026): 22 or later', () => {
    assert.ok(major(floor) >= 22, `engines.node is ${manifest.engines.node}`);
  });

  it('is supported by every locked package that declares its Node.js (npm install warns of none)', () => {
    const unsupported = Object.entries(lock.packages).flatMap(([name, entry]) => {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      return name && range && !satisfies(floor, range) ? [`${name.replace(/^node_modules\//u, '')} needs ${range}`] : [];
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
