import { managedPolicy } from '../../managed/managedPolicy';
import { currentManagedSettings } from '../../managed/managedSettings';
import type { DoctorCheck } from './doctorReport';

/**
 * The administrator's managed file and every rule it sets, so a person sees which rules come from it rather than
 * from their own or the project's files. Telemetry headers are counted, never shown: they usually hold a token.
 */
export function managedPolicyCheckFor(env: NodeJS.ProcessEnv): () => Promise<DoctorCheck> {
  return async () => managedPolicyReport(env);
}

export function managedPolicyReport(env: NodeJS.ProcessEnv): DoctorCheck {
  const policy = managedPolicy(env);
  const base = { id: 'managed-policy', title: 'Managed policy' };
  if (policy.state === 'absent') return { ...base, verdict: 'ok', detail: `no managed file at ${policy.file}: no administrator rules on this machine` };
  if (policy.state === 'broken') {
    return { ...base, verdict: 'broken', detail: `${policy.file} cannot be used: ${policy.problem}. Until it is fixed every write is refused, unsigned records are refused and hooks refuse decisions (fail closed).`, fix: `The administrator replaces ${policy.file} with a valid JSON object.` };
  }
  const settings = currentManagedSettings(env);
  const value = settings.kind === 'present' ? settings.value : {};
  const rules: string[] = [];
  if (policy.protectedPaths.length) rules.push(`protectedPaths: ${policy.protectedPaths.join(', ')} (no intent can grant a write there)`);
  if (policy.requireSigning) rules.push('requireSigning: records are never written unsigned; a change whose record cannot be signed is refused');
  const hooks = hookCounts(value.hooks);
  if (hooks) rules.push(`hooks: ${hooks} (run always, after every other layer's)`);
  if (value.allowManagedHooksOnly === true) rules.push("allowManagedHooksOnly: the user's and the project's hooks do not run");
  if (value.disableAllHooks === true) rules.push('disableAllHooks: no hook runs, the managed ones neither');
  if (policy.telemetry) {
    const headers = Object.keys(policy.telemetry.headers).length;
    rules.push(`telemetry: records exported over OTLP/HTTP to ${policy.telemetry.endpoint}${headers ? ` (${headers} header(s), not shown)` : ''}, whatever the user sets`);
  }
  return { ...base, verdict: 'ok', detail: `${policy.file}: ${rules.length ? rules.join('; ') : 'no rules'}` };
}

function hookCounts(hooks: unknown): string | undefined {
  if (typeof hooks !== 'object' || hooks === null) return undefined;
  const parts = Object.entries(hooks as Record<string, unknown>).map(([event, groups]) => {
    const count = Array.isArray(groups) ? groups.reduce((sum: number, group: unknown) => sum + (Array.isArray((group as { hooks?: unknown })?.hooks) ? ((group as { hooks: unknown[] }).hooks.length) : 0), 0) : 0;
    return `${event} ×${count}`;
  });
  return parts.length ? parts.join(', ') : undefined;
}
