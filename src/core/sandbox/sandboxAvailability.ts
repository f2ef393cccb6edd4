/**
 * Which operating-system sandbox confines commands on this machine, found at run time: bubblewrap on Linux,
 * sandbox-exec on macOS, or none, with a plain reason and how to get one.
 */
export type SandboxAvailability =
  | { kind: 'bubblewrap'; path: string; version?: string }
  | { kind: 'sandbox-exec'; path: string }
  | { kind: 'unavailable'; reason: string; install: string };

export type SandboxKind = Exclude<SandboxAvailability['kind'], 'unavailable'>;

/** Present where a sandbox can start, so callers that need one do not test `kind` twice. */
export type AvailableSandbox = Exclude<SandboxAvailability, { kind: 'unavailable' }>;

export function isAvailable(sandbox: SandboxAvailability): sandbox is AvailableSandbox {
  return sandbox.kind !== 'unavailable';
}

/** One line for the log, `governor doctor` and the approval dialog. */
export function describeSandbox(sandbox: SandboxAvailability): string {
  switch (sandbox.kind) {
    case 'bubblewrap':
      return `Commands run confined by bubblewrap (${sandbox.path}${sandbox.version ? `, ${sandbox.version}` : ''}): they can write only in the bound intent's scope, private temp folders and named caches.`;
    case 'sandbox-exec':
      return `Commands run confined by sandbox-exec (${sandbox.path}): they can write only in the bound intent's scope, private temp folders and named caches.`;
    case 'unavailable':
      return `No sandbox can start here (${sandbox.reason}): commands are judged by their text alone, and anything the text cannot show asks a human. To confine them: ${sandbox.install}.`;
  }
}

/**
 * The short notice where no sandbox can start, for the status bar's tooltip: what is missing and how to get it.
 * Undefined where commands are confined (nothing to warn about).
 */
export function notSandboxedNotice(sandbox: SandboxAvailability): string | undefined {
  if (sandbox.kind !== 'unavailable') return undefined;
  const install = sandbox.install.charAt(0).toUpperCase() + sandbox.install.slice(1);
  return `Commands are not sandboxed: ${sandbox.reason}. ${install}.`;
}
