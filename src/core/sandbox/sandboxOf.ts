import type { Logger } from '../logger';
import { describeSandbox, type SandboxAvailability } from './sandboxAvailability';
import { detectSandbox } from './sandboxDetection';

// Per logger (one per process in the CLI, the extension's one channel): said once where the person reads it.
const announcedTo = new WeakSet<Logger>();

/**
 * The sandbox a governed call's commands run in: the services' own (`GovernorServices.sandbox`), else this
 * machine's, which is said once in the log (confined, or why not and how to install one).
 */
export async function sandboxOf(services: { sandbox?: () => Promise<SandboxAvailability>; logger?: Logger }): Promise<SandboxAvailability> {
  if (services.sandbox) return services.sandbox();
  const sandbox = await detectSandbox();
  if (services.logger) announceSandbox(sandbox, services.logger);
  return sandbox;
}

/**
 * Says this machine's sandbox in the log, once per logger: the extension says it at activation, so its first
 * command does not say it again. Returns whether this call said it.
 */
export function announceSandbox(sandbox: SandboxAvailability, logger: Logger): boolean {
  if (announcedTo.has(logger)) return false;
  announcedTo.add(logger);
  if (sandbox.kind === 'unavailable') logger.warn(describeSandbox(sandbox));
  else logger.info(describeSandbox(sandbox));
  return true;
}
