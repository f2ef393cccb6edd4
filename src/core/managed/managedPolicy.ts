import { parseMcpToolPattern } from '../approval/mcpToolPattern';
import { currentManagedSettings, type ManagedSettings } from './managedSettings';

/**
 * The rules of the managed file besides hooks (those are read by userHooks/hookLayers.ts), checked here so every
 * consumer reads them alike:
 *   protectedPaths   globs no intent can grant a write to, added to the built-in protected paths
 *   requireSigning   no record is written unsigned, so no change is made whose record cannot be signed
 *   telemetry        { endpoint, headers }: where records are exported over OTLP/HTTP, whatever the user sets
 *   mcpTools         { deny: [...] }: other MCP servers' tools no plan can allow (approval/mcpToolPattern.ts)
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
  /** Patterns of other MCP servers' tools refused whatever a plan's `mcp_tools` says. */
  mcpToolsDeny: readonly string[];
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
  const none = { file: settings.path, protectedPaths: [], requireSigning: false, mcpToolsDeny: [] };
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
  const mcpToolsDeny = mcpToolsDenyOf(value.mcpTools);
  if (typeof mcpToolsDeny === 'string') return broken(mcpToolsDeny);
  return { file: settings.path, state: 'present', protectedPaths: protectedPaths as string[], requireSigning, ...(telemetry ? { telemetry } : {}), mcpToolsDeny };
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

function mcpToolsDenyOf(raw: unknown): string[] | string {
  if (raw === undefined) return [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'mcpTools must be an object { deny: [...] }';
  const { deny = [], ...rest } = raw as Record<string, unknown>;
  const other = Object.keys(rest)[0];
  if (other !== undefined) return `mcpTools takes only 'deny' (plans allow), not '${other}'`;
  if (!Array.isArray(deny)) return 'mcpTools.deny must be an array of patterns such as "github/*"';
  for (const [index, text] of deny.entries()) {
    const parsed = parseMcpToolPattern(text);
    if (typeof parsed === 'string') return `mcpTools.deny[${index}] ${parsed}`;
  }
  return deny as string[];
}
