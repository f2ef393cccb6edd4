import type { SandboxAvailability } from './sandboxAvailability';
import { detectSandbox } from './sandboxDetection';

/** The sandbox a governed call's commands run in: the services' own (`GovernorServices.sandbox`), else this machine's. */
export function sandboxOf(services: { sandbox?: () => Promise<SandboxAvailability> }): Promise<SandboxAvailability> {
  return services.sandbox ? services.sandbox() : detectSandbox();
}
