import { strict as assert } from 'node:assert';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, realpath } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { confinedCommandLine } from '../../../../src/core/sandbox/confinedCommandLine';
import { confinedInvocation } from '../../../../src/core/sandbox/confinedInvocation';
import { planConfinement, releaseConfinement } from '../../../../src/core/sandbox/confinedRun';
import type { AvailableSandbox } from '../../../../src/core/sandbox/sandboxAvailability';
import { detectSandbox } from '../../../../src/core/sandbox/sandboxDetection';
import { codeOf, createHarness, type Harness } from '../../../support/governorHarness';
import { removeTree } from '../../../support/removeTree';
import { sandboxOrSkip } from '../../../support/sandboxes';

const DENIED = `active_intents:
  - id: "offline"
    name: "Offline work"
    status: "IN_PROGRESS"
    owned_scope: ["src/**"]
    network: deny
    constraints: []
    acceptance_criteria: []
`;

/**
 * `network: deny` is more than no network namespace: a daemon's unix socket (standing for ssh-agent, docker.sock or
 * the user's D-Bus) and a FIFO a service reads, both outside the workspace, stay out of reach of a confined command.
 */
describe('run_command with network: deny: local sockets and FIFOs outside the workspace are out of reach', function () {
  this.timeout(60_000);
  let h: Harness;
  let socketDir: string;
  let fifoDir: string;
  let daemon: Server;
  let reader: ChildProcess | undefined;
  let connections: number;

  beforeEach(async function () {
    await sandboxOrSkip(this);
    // In the home directory, not a runtime folder: only the socket rule can keep it out of reach.
    socketDir = await realpath(await mkdtemp(join(homedir(), '.ig-sock-')));
    fifoDir = await realpath(await mkdtemp(join(tmpdir(), 'ig-fifo-')));
    connections = 0;
    daemon = createServer((socket) => {
      connections += 1;
      socket.end('hello from the daemon\n');
    });
    await new Promise<void>((resolve) => daemon.listen(join(socketDir, 'agent.sock'), resolve));
    execFileSync('mkfifo', [join(fifoDir, 'control')]);
    h = await createHarness({
      intents: DENIED,
      files: {
        'src/a.ts': 'a\n',
        'src/reach.cjs': `const net = require('net');\nconst s = net.connect(${JSON.stringify(join(socketDir, 'agent.sock'))});\ns.on('data', (d) => { console.log('REACHED ' + d); s.destroy(); });\ns.on('error', (e) => console.log('SOCKET-REFUSED ' + e.code));\n`,
        'src/fifo.sh': `if echo pwned > ${join(fifoDir, 'control')}; then echo FIFO-WRITTEN; else echo FIFO-REFUSED; fi\n`,
        'src/fifo-at.sh': 'if echo pwned > "$1"; then echo FIFO-WRITTEN; else echo FIFO-REFUSED; fi\n',
      },
    });
    assert.ok((await h.call('select_active_intent', { intent_id: 'offline' })).ok);
  });

  afterEach(async () => {
    reader?.kill();
    reader = undefined;
    await new Promise<void>((resolve) => daemon?.close(() => resolve()));
    await removeTree(socketDir);
    await removeTree(fifoDir);
    await h?.dispose();
  });

  it("a daemon's unix socket in the home directory cannot be connected to", async () => {
    h.approver.script(...Array<boolean>(5).fill(true));
    const result = await h.call('run_command', { command: 'node src/reach.cjs' });
    const text = JSON.stringify(result);
    assert.equal(codeOf(result), 'ok', text);
    assert.match(text, /SOCKET-REFUSED EACCES/, text);
    assert.doesNotMatch(text, /REACHED/);
    assert.equal(connections, 0);
  });

  it('a FIFO a service reads in /tmp cannot be written to', async () => {
    let heard = '';
    reader = spawn('cat', [join(fifoDir, 'control')], { stdio: ['ignore', 'pipe', 'ignore'] });
    reader.stdout?.on('data', (d: Buffer) => (heard += d.toString()));
    h.approver.script(...Array<boolean>(5).fill(true));
    const result = await h.call('run_command', { command: 'sh src/fifo.sh' });
    const text = JSON.stringify(result);
    assert.match(text, /FIFO-REFUSED/, text);
    assert.equal(heard, '');
  });

  // Read-only mounts do not stop this: opening a FIFO for writing changes no file. Only the write gate does.
  for (const where of ['the home directory', "the workspace, outside the intent's scope"]) {
    it(`a FIFO a service reads in ${where} cannot be written to`, async () => {
      const fifo = where === 'the home directory' ? join(socketDir, 'control') : join(h.root, 'control');
      execFileSync('mkfifo', [fifo]);
      let heard = '';
      reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'ignore'] });
      reader.stdout?.on('data', (d: Buffer) => (heard += d.toString()));
      h.approver.script(...Array<boolean>(5).fill(true));
      const result = await h.call('run_command', { command: `sh src/fifo-at.sh ${fifo}` });
      const text = JSON.stringify(result);
      assert.match(text, /FIFO-REFUSED/, text);
      assert.match(text, /Permission denied/, text);
      assert.equal(heard, '');
    });
  }

  it("an agent's rewritten shell line keeps the same rule (the filter handed over on descriptor 3)", async () => {
    const sandbox = (await detectSandbox()) as AvailableSandbox;
    const planned = await planConfinement({ workspaceRoot: h.root, ownedScope: ['src/**'], denyNetwork: true, governorHome: join(socketDir, 'home') }, 'ig-line-');
    try {
      const line = confinedCommandLine(confinedInvocation(sandbox, planned.confinement, 'node src/reach.cjs', h.root, {}), planned.confinement.tempDir);
      assert.match(line, / 3<\S+deny-unix-/);
      const out = execFileSync('/bin/sh', ['-c', line], { cwd: h.root, encoding: 'utf8', env: { PATH: process.env.PATH } });
      assert.match(out, /SOCKET-REFUSED EACCES/, out);
      assert.equal(connections, 0);
      execFileSync('mkfifo', [join(socketDir, 'line-fifo')]);
      reader = spawn('cat', [join(socketDir, 'line-fifo')], { stdio: 'ignore' });
      const fifoLine = confinedCommandLine(confinedInvocation(sandbox, planned.confinement, `sh src/fifo-at.sh ${join(socketDir, 'line-fifo')}`, h.root, {}), planned.confinement.tempDir);
      assert.match(execFileSync('/bin/sh', ['-c', fifoLine], { cwd: h.root, encoding: 'utf8', env: { PATH: process.env.PATH } }), /FIFO-REFUSED/);
    } finally {
      await releaseConfinement(planned);
    }
  });

  it('the command still runs and writes in its scope', async () => {
    const result = await h.call('run_command', { command: 'echo ok > src/b.ts' });
    assert.equal(codeOf(result), 'ok', JSON.stringify(result));
  });
});
