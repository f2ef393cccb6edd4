import { currentManagedSettings, type ManagedSettings } from './managedSettings';

/**
 * The rules of the managed file besides hooks (those are read by userHooks/hookLayers.ts), checked here so every
 * consumer reads them alike:
 *   protectedPaths   globs no intent can grant a write to, added to the built-in protected paths
 *   requireSigning   no record is written unsigned, so no change is made whose record cannot be signed
 *   telemetry        { endpoint, headers }: where records are exported over OTLP/HTTP, whatever the user sets
 * A rule of the wrong shape makes the whole file unusable (`problem`): its consumers fail closed.
 */
export interface ManagedPolicy {
  file: string;
  /** Whether the file exists; `broken` when it cannot be read or a rule has the wrong shape. */
  state: 'absent' | 'present' | 'broken';
  problem?: string;
  protectedPaths: readonly string[];
  requireSigning: boolean;
  telemetry?: ManagedTelemetry;
}

export interface ManagedTelemetry {
  endpoint: string;
  headers: Readonly<Record<string, string>>;
}

const policies = new WeakMap<ManagedSettings, ManagedPolicy>();

/** The managed policy now (the file re-read when it changed, see currentManagedSettings). */
export function managedPolicy(env: NodeJS.ProcessEnv = process.env): ManagedPolicy {
  const settings = currentManagedSettings(env);
  let policy = policies.get(settings);
  if (!policy) {
    policy = policyOf(settings);
    policies.set(settings, policy);
  }
  return policy;
}

function policyOf(settings: ManagedSettings): ManagedPolicy {
  const none = { file: settings.path, protectedPaths: [], requireSigning: false };
  if (settings.kind === 'absent') return { ...none, state: 'absent' };
  if (settings.kind === 'broken') return { ...none, state: 'broken', problem: settings.message };
  const value = settings.value;
  const broken = (message: string): ManagedPolicy => ({ ...none, state: 'broken', problem: message });
  const protectedPaths = value.protectedPaths ?? [];
  if (!Array.isArray(protectedPaths)) return broken('protectedPaths must be an array of path globs');
  for (const [index, glob] of protectedPaths.entries()) {
    const reason = globProblem(glob);
    if (reason) return broken(`protectedPaths[${index}]: ${reason}`);
  }
  const requireSigning = value.requireSigning ?? false;
  if (typeof requireSigning !== 'boolean') return broken('requireSigning must be true or false');
  const telemetry = telemetryOf(value.telemetry);
  if (typeof telemetry === 'string') return broken(telemetry);
  return { file: settings.path, state: 'present', protectedPaths: protectedPaths as string[], requireSigning, ...(telemetry ? { telemetry } : {}) };
}

function globProblem(glob: unknown): string | undefined {
  if (typeof glob !== 'string' || glob.trim() === '') return 'must be a non-empty string';
  if (glob.startsWith('!')) return 'a negation cannot unprotect anything; list only what to protect';
  if (glob.split('/').includes('..')) return "'..' leads out of the workspace";
  if (glob.includes('\\')) return "use '/' between folders";
  return undefined;
}

function telemetryOf(raw: unknown): ManagedTelemetry | string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'telemetry must be an object { endpoint, headers }';
  const { endpoint, headers = {} } = raw as Record<string, unknown>;
  if (typeof endpoint !== 'string' || !/^https?:\/\/[^\s]+$/iu.test(endpoint)) return 'telemetry.endpoint must be an http(s) URL (the OTLP/HTTP base, e.g. https://collector.example:4318)';
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return 'telemetry.headers must be an object of header names to strings';
  for (const [name, text] of Object.entries(headers)) {
    if (typeof text !== 'string') return `telemetry.headers.${name} must be a string`;
  }
  return { endpoint, headers: headers as Record<string, string> };
}
