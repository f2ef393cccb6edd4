import { FileDerived } from '../io/fileDerived';
import { describeProblem, readRegularFileSync } from '../io/regularFile';

/**
 * The managed settings file an administrator puts on a machine: what project and user files cannot weaken. Read
 * here once for every consumer (user hooks, protected paths, required signing, telemetry: managedPolicy.ts). Only root (or an
 * administrator) can write these places; INTENT_GOVERNOR_MANAGED_FILE points elsewhere for tests.
 */
export const MANAGED_FILE_ENV = 'INTENT_GOVERNOR_MANAGED_FILE';
const MAX_MANAGED_BYTES = 256 * 1024;

export function managedSettingsPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const override = env[MANAGED_FILE_ENV];
  if (override) return override;
  if (platform === 'darwin') return '/Library/Application Support/IntentGovernor/managed.json';
  if (platform === 'win32') return 'C:\\ProgramData\\IntentGovernor\\managed.json';
  return '/etc/intent-governor/managed.json';
}

/** The file as read: absent (nothing is managed), its JSON object, or why it cannot be used (fail closed). */
export type ManagedSettings = { kind: 'absent'; path: string } | { kind: 'present'; path: string; value: Record<string, unknown> } | { kind: 'broken'; path: string; message: string };

export function readManagedSettings(env: NodeJS.ProcessEnv = process.env): ManagedSettings {
  const path = managedSettingsPath(env);
  const read = readRegularFileSync(path, { maxBytes: MAX_MANAGED_BYTES });
  if (!read.ok && read.problem.kind === 'missing') return { kind: 'absent', path };
  if (!read.ok) return { kind: 'broken', path, message: `${describeProblem('the file', read.problem)}; the administrator must replace it with a JSON object` };
  let value: unknown;
  try {
    value = JSON.parse(read.bytes.toString('utf8'));
  } catch (error) {
    return { kind: 'broken', path, message: `the file is not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'broken', path, message: 'the file must be a JSON object' };
  return { kind: 'present', path, value: value as Record<string, unknown> };
}

const managed = new FileDerived<ManagedSettings>();

/**
 * readManagedSettings for the hot path (every protected-path check): the file is read again only when its path or
 * its stat changed, so an administrator's edit applies to the next call of a long-lived process (the extension, a
 * resident governor) for the cost of one stat.
 */
export function currentManagedSettings(env: NodeJS.ProcessEnv = process.env): ManagedSettings {
  return managed.get([managedSettingsPath(env)], () => readManagedSettings(env));
}
