import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { residentEndpointPath } from '../../../src/core/agents/common/residentProtocol';
import { residentEndpointPid } from '../../../src/core/bridge/residentEndpoint';
import { physicalPath } from '../../../src/core/paths/sameFolder';
import { finishedWithin } from '../../support/childProcesses';
import { headlessHookWorkspace, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { residentBundles, stopResident } from '../../support/residentDoors';

/**
 * A resident stopped by a signal (Ctrl-C in the terminal that ran `governor resident`, a service manager's SIGTERM)
 * takes its endpoint with it: a file left naming a dead pid and a port another program may own now.
 */
describe('governor resident stopped by a signal', function () {
  this.timeout(60_000);
  let w: HeadlessHookWorkspace;

  beforeEach(async () => {
    w = await headlessHookWorkspace({ intent: 'auth-refactor' });
  });
  afterEach(async () => {
    stopResident(w.home, w.h.root);
    await w.dispose();
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`removes its endpoint file on ${signal}`, async () => {
      const { cli } = residentBundles();
      const child = spawn(process.execPath, [cli, 'resident', '--workspace', w.h.root], { cwd: w.h.root, env: { ...process.env, ...w.env, INTENT_GOVERNOR_RESIDENT: 'on' }, stdio: 'ignore' });
      const exited = finishedWithin(child, 30_000);
      const deadline = Date.now() + 20_000;
      while (residentEndpointPid(w.home, w.h.root) !== child.pid) {
        if (Date.now() > deadline || child.exitCode !== null) assert.fail(`the resident (pid ${child.pid}) wrote no endpoint`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      child.kill(signal);
      const done = await exited;
      assert.notEqual(done.signal, 'SIGKILL', 'it stopped by itself, within the deadline');
      for (const root of new Set([w.h.root, physicalPath(w.h.root) ?? w.h.root])) {
        assert.equal(existsSync(residentEndpointPath(w.home, root)), false, `the endpoint of ${root} is gone (exit ${done.code} ${done.signal}); log:\n${readFileSync(join(w.home, 'run', 'resident.log'), 'utf8')}`);
      }
    });
  }
});
