import { governorHome } from '../../paths/governorHome';
import { resolveTelemetryConfig } from '../../telemetry/telemetryConfig';
import { readTelemetryProblems } from '../../telemetry/telemetryStats';
import type { DoctorCheck } from './doctorReport';

/**
 * Where records are exported and what did not arrive: the drops (a full queue, an exit that came first) and the
 * failed sends every process on this machine reported. A warning, never a failure: the local logs hold everything.
 */
export function telemetryCheckFor(env: NodeJS.ProcessEnv, settingEndpoint?: string): () => Promise<DoctorCheck> {
  return async () => telemetryReport(env, settingEndpoint);
}

export function telemetryReport(env: NodeJS.ProcessEnv, settingEndpoint?: string): DoctorCheck {
  const base = { id: 'telemetry', title: 'OpenTelemetry export' };
  const config = resolveTelemetryConfig(env, settingEndpoint);
  const problems = readTelemetryProblems(governorHome(env));
  const lost = problems.dropped + problems.failed;
  const history = lost ? `; since ${problems.since}: ${problems.dropped} record(s) dropped, ${problems.failed} not taken by the collector (last at ${problems.lastAt}${problems.lastError ? `: ${problems.lastError}` : ''}); the local logs hold them all` : '; nothing dropped or failed';
  if (!config) return { ...base, verdict: 'ok', detail: `off (set OTEL_EXPORTER_OTLP_ENDPOINT, intentGovernor.telemetry.otlpEndpoint or the managed file's telemetry)${lost ? history : ''}` };
  const detail = `OTLP/HTTP to ${config.url} (set by ${config.source}; ${Object.keys(config.headers).length} header(s), not shown)${history}`;
  return lost ? { ...base, verdict: 'warning', detail, fix: `Check that the collector at ${config.url} is up and reachable from this machine.` } : { ...base, verdict: 'ok', detail };
}
