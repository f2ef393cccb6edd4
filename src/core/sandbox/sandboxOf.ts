import type { Logger } from '../logger';
import { describeSandbox, type SandboxAvailability } from './sandboxAvailability';
import { detectSandbox } from './sandboxDetection';

let announced = false;

/**
 * The sandbox a governed call's commands run in: the services' own (`GovernorServices.sandbox`), else this
 * machine's, which is said once in the log (confined, or why not and how to install one).
 */
export async function sandboxOf(services: { sandbox?: () => Promise<SandboxAvailability>; logger?: Logger }): Promise<SandboxAvailability> {
  if (services.sandbox) return services.sandbox();
  const sandbox = await detectSandbox();
  if (!announced) {
    announced = true;
    if (sandbox.kind === 'unavailable') services.logger?.warn(describeSandbox(sandbox));
    else services.logger?.info(describeSandbox(sandbox));
  }
  return sandbox;
}
