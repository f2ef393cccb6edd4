import { managedPolicy } from '../managed/managedPolicy';

/**
 * Why a record may not be written unsigned here, or undefined when it may: the administrator's managed file says
 * `requireSigning: true` (or cannot be used, and might say so). Fail closed: the writer refuses the record and the
 * governor refuses the change, so no change is made whose record cannot be signed.
 */
export function unsignedRecordRefusal(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const policy = managedPolicy(env);
  if (policy.state === 'broken') return `The administrator's managed file ${policy.file} cannot be used (${policy.problem}), so whether records must be signed is unknown and no unsigned record is written. The administrator must fix the file.`;
  if (!policy.requireSigning) return undefined;
  return `The administrator requires every record to be signed (requireSigning in ${policy.file}) and this governor has no signing key, so nothing is recorded or changed. Create a key with \`governor keys init\` (the CLI and agents' hooks) or the command "Intent Governor: Initialize Signing Key" (VS Code), then try again.`;
}
