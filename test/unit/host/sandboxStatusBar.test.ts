import { strict as assert } from 'node:assert';
import type { Logger } from '../../../src/core/logger';
import type { SandboxAvailability } from '../../../src/core/sandbox/sandboxAvailability';
import { detectSandbox, probe } from '../../../src/core/sandbox/sandboxDetection';
import { sandboxOf } from '../../../src/core/sandbox/sandboxOf';
import { announceSandboxAtStartup, SandboxStatusBar, type SandboxStatusItem } from '../../../src/host/sandboxStatusBar';

/** A status bar item that remembers what a person would see. */
function fakeItem() {
  const item = {
    name: undefined as SandboxStatusItem['name'],
    text: '',
    tooltip: undefined as SandboxStatusItem['tooltip'],
    command: undefined as SandboxStatusItem['command'],
    backgroundColor: undefined as SandboxStatusItem['backgroundColor'],
    visible: false,
    show() {
      item.visible = true;
    },
    hide() {
      item.visible = false;
    },
    dispose() {},
  };
  return item;
}

function recordingLogger() {
  const lines: { level: 'info' | 'warn' | 'error'; message: string }[] = [];
  const logger: Logger = {
    info: (message) => lines.push({ level: 'info', message }),
    warn: (message) => lines.push({ level: 'warn', message }),
    error: (message) => lines.push({ level: 'error', message }),
  };
  return { logger, lines };
}

const WARNING = { id: 'statusBarItem.warningBackground' } as unknown as SandboxStatusItem['backgroundColor'] & object;

describe('sandbox notice at startup (status bar and log)', () => {
  it('where bubblewrap is missing: one warning in the log, the status bar warns with the reason and how to install it, the first command does not repeat it', async () => {
    // The one faked result: bubblewrap is installed on this machine (the probe looks in /usr/bin first), so its
    // absence is the detection's own answer for a missing bwrap, copied as it reads.
    const missing: SandboxAvailability = { kind: 'unavailable', reason: 'bubblewrap (bwrap) is not installed', install: 'install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap) and allow unprivileged user namespaces' };
    const item = fakeItem();
    const { logger, lines } = recordingLogger();
    const bar = new SandboxStatusBar(item, WARNING);
    await announceSandboxAtStartup(async () => missing, logger, bar);

    assert.equal(item.visible, true);
    assert.equal(item.text, '$(warning) Not sandboxed');
    assert.equal(item.backgroundColor, WARNING);
    assert.equal(item.command, 'intentGovernor.doctor');
    assert.match(String(item.tooltip), /^Commands are not sandboxed: bubblewrap \(bwrap\) is not installed\. Install bubblewrap \(Debian\/Ubuntu: sudo apt-get install bubblewrap;/);
    assert.deepEqual(lines.map((line) => line.level), ['warn']);
    assert.match(lines[0].message, /No sandbox can start here \(bubblewrap \(bwrap\) is not installed\).*sudo apt-get install bubblewrap/);

    // The first governed command asks for the sandbox through the same logger: nothing more is said.
    await sandboxOf({ logger });
    assert.equal(lines.length, 1);
  });

  it('where bubblewrap starts (this machine): one info line naming it, no status bar item', async function () {
    const real = await probe(process.platform, process.env.PATH ?? '');
    if (real.kind === 'unavailable') this.skip(); // the project's setup installs bubblewrap; without it this case cannot be seen
    const item = fakeItem();
    const { logger, lines } = recordingLogger();
    const sandbox = await announceSandboxAtStartup(detectSandbox, logger, new SandboxStatusBar(item, WARNING));

    assert.equal(sandbox.kind, 'bubblewrap');
    assert.equal(item.visible, false);
    assert.equal(item.text, '');
    assert.deepEqual(lines.map((line) => line.level), ['info']);
    assert.match(lines[0].message, /^Commands run confined by bubblewrap \(\/usr\/bin\/bwrap/);
    await sandboxOf({ logger });
    assert.equal(lines.length, 1);
  });

  it('on Windows (the real probe for win32): the status bar says no sandbox is known there and what to do', async () => {
    const item = fakeItem();
    const { logger, lines } = recordingLogger();
    await announceSandboxAtStartup(() => probe('win32', ''), logger, new SandboxStatusBar(item, WARNING));
    assert.equal(item.text, '$(warning) Not sandboxed');
    assert.match(String(item.tooltip), /^Commands are not sandboxed: no sandbox is known for win32\. Run the agent in WSL 2/);
    assert.equal(lines.length, 1);
  });

  it('a probe that fails is shown as not sandboxed, never as confined', async () => {
    const item = fakeItem();
    const { logger, lines } = recordingLogger();
    await announceSandboxAtStartup(() => Promise.reject(new Error('spawn EAGAIN')), logger, new SandboxStatusBar(item, WARNING));
    assert.equal(item.text, '$(warning) Not sandboxed');
    assert.match(String(item.tooltip), /could not be probed \(spawn EAGAIN\)/);
    assert.equal(lines[0].level, 'warn');
  });
});
