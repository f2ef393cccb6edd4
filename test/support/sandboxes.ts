import type { SandboxAvailability } from '../../src/core/sandbox/sandboxAvailability';
import { detectSandbox } from '../../src/core/sandbox/sandboxDetection';

/** Services without a sandbox: the text policy is the only layer, as on a machine where none can start. */
export const NO_SANDBOX: SandboxAvailability = { kind: 'unavailable', reason: 'turned off for this test', install: 'nothing' };
export const noSandbox = (): Promise<SandboxAvailability> => Promise.resolve(NO_SANDBOX);

/** This machine's sandbox, or a skip that says why (CI installs bubblewrap, so these tests run there). */
export async function sandboxOrSkip(context: Mocha.Context): Promise<SandboxAvailability> {
  const sandbox = await detectSandbox();
  if (sandbox.kind === 'unavailable') {
    console.log(`    skipped: no sandbox can start here (${sandbox.reason}); ${sandbox.install}`);
    context.skip();
  }
  return sandbox;
}
