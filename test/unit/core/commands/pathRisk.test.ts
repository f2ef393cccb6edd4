import { strict as assert } from 'node:assert';
import { deviceKind, sweepingTarget } from '../../../../src/core/commands/pathRisk';

describe('pathRisk', () => {
  describe('sweepingTarget: paths whose recursive deletion takes more than project files', () => {
    const ctx = { workspaceRoot: '/home/dev/project', homeDir: '/home/dev' };
    const sweeping = ['/', '//', '/*', '/.', '/usr', '/usr/', '/etc/*', '~', '~/', '~/*', '~root', '$HOME', '${HOME}/*', '.', './', './*', '*', '.*', '*/*', '..', '../..', 'src/..', '$PWD', '/home/dev/project', '/home/dev', '/home/dev/project/*'];
    const narrow = ['build', 'src/*', '*.ts', './dist', '/tmp/scratch', '~/project/tmp', '../sibling', '/home/dev/project/build', '$HOME/x'];
    for (const path of sweeping) it(`${path} is sweeping`, () => assert.notEqual(sweepingTarget(path, ctx), null));
    for (const path of narrow) it(`${path} is narrow`, () => assert.equal(sweepingTarget(path, ctx), null));
    it('recognises the workspace only when told where it is', () => assert.equal(sweepingTarget('/srv/app/project', {}), null));
  });

  describe('deviceKind', () => {
    const cases: [string, ReturnType<typeof deviceKind>][] = [
      ['/dev/null', 'discard'], ['/dev/stderr', 'discard'], ['/dev/fd/3', 'discard'], ['/dev/sda', 'block'],
      ['/dev/nvme0n1p1', 'block'], ['/dev/disk2', 'block'], ['/dev/tcp/1.2.3.4/80', 'network'], ['/dev/random', 'other'],
      ['/dev/../etc/passwd', null], ['dev/null', null], ['out.txt', null],
    ];
    for (const [path, kind] of cases) it(`${path} is ${kind}`, () => assert.equal(deviceKind(path), kind));
  });
});
