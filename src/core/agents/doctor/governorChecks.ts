import { gitSetupCheck } from './gitSetupCheck';
import { managedPolicyCheckFor } from './managedPolicyCheck';
import { sandboxCheck } from './sandboxCheck';
import { telemetryCheckFor } from './telemetryCheck';
import type { DoctorCheck } from './doctorReport';

/** The checks of the governor itself that `doctor` runs after the doors, the same from the CLI and the editor. */
export function governorChecks(env: NodeJS.ProcessEnv, otlpEndpointSetting?: string): ((workspace: string) => Promise<DoctorCheck>)[] {
  return [sandboxCheck, managedPolicyCheckFor(env), telemetryCheckFor(env, otlpEndpointSetting), gitSetupCheck];
}
