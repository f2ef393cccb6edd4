import { describeSandbox, isAvailable } from '../../sandbox/sandboxAvailability';
import { detectSandbox } from '../../sandbox/sandboxDetection';
import type { DoctorCheck } from './doctorReport';

/**
 * Whether the commands the governor runs are confined by the operating system here. Without a sandbox the text
 * policy is the only layer: a warning, not a failure, because the governor still refuses what it cannot check.
 */
export async function sandboxCheck(): Promise<DoctorCheck> {
  const sandbox = await detectSandbox();
  if (isAvailable(sandbox)) return { id: 'command-sandbox', title: 'Command sandbox', verdict: 'ok', detail: describeSandbox(sandbox) };
  return { id: 'command-sandbox', title: 'Command sandbox', verdict: 'warning', detail: describeSandbox(sandbox), fix: sandbox.install };
}
