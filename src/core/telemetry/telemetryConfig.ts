import { managedPolicy } from '../managed/managedPolicy';

/** Where records are exported, and how: resolved from the managed file, the OTEL_* variables, then the editor's setting. */
export interface TelemetryConfig {
  /** The OTLP/HTTP logs URL (…/v1/logs). */
  url: string;
  headers: Record<string, string>;
  serviceName: string;
  /** One request's timeout, retries included (OTEL_EXPORTER_OTLP_(LOGS_)TIMEOUT, default 5000 ms). */
  timeoutMs: number;
  /** How long a process about to exit waits for its queue to go out (INTENT_GOVERNOR_OTLP_EXIT_FLUSH_MS, default 1000). */
  exitFlushMs: number;
  /** Who set it, for `governor doctor`: the managed file's path, the variable's name, or the setting's. */
  source: string;
}

/**
 * Off unless something names an endpoint. The administrator's managed `telemetry` wins (no variable or setting can
 * turn it off or send it elsewhere); then OTEL_EXPORTER_OTLP_LOGS_ENDPOINT (the full URL) or
 * OTEL_EXPORTER_OTLP_ENDPOINT (the base, + /v1/logs), with OTEL_EXPORTER_OTLP_(LOGS_)HEADERS (k=v,k=v,
 * URL-encoded), OTEL_EXPORTER_OTLP_(LOGS_)TIMEOUT (ms) and OTEL_SDK_DISABLED=true to turn the user's own export off; then the editor's setting
 * (`intentGovernor.telemetry.otlpEndpoint`, a base URL).
 */
export function resolveTelemetryConfig(env: NodeJS.ProcessEnv = process.env, settingEndpoint?: string): TelemetryConfig | undefined {
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || 'intent-governor';
  const timeout = Number(env.OTEL_EXPORTER_OTLP_LOGS_TIMEOUT ?? env.OTEL_EXPORTER_OTLP_TIMEOUT);
  const exitFlush = Number(env.INTENT_GOVERNOR_OTLP_EXIT_FLUSH_MS);
  const common = { serviceName, timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 5000, exitFlushMs: Number.isFinite(exitFlush) && exitFlush >= 0 ? exitFlush : 1000 };
  const managed = managedPolicy(env).telemetry;
  if (managed) return { ...common, url: logsUrl(managed.endpoint), headers: { ...managed.headers }, source: managedPolicy(env).file };
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const headers = { ...parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS), ...parseHeaders(env.OTEL_EXPORTER_OTLP_LOGS_HEADERS) };
  const logs = env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT?.trim();
  if (logs) return { ...common, url: logs, headers, source: 'OTEL_EXPORTER_OTLP_LOGS_ENDPOINT' };
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (base) return { ...common, url: logsUrl(base), headers, source: 'OTEL_EXPORTER_OTLP_ENDPOINT' };
  const setting = settingEndpoint?.trim();
  if (setting) return { ...common, url: logsUrl(setting), headers, source: 'intentGovernor.telemetry.otlpEndpoint' };
  return undefined;
}

/** The OTLP/HTTP convention: a base endpoint gets the signal's path appended. */
function logsUrl(base: string): string {
  return `${base.replace(/\/+$/u, '')}/v1/logs`;
}

/** W3C baggage-like `k=v,k2=v2`, values URL-encoded, as the OTLP exporter specification writes them. */
export function parseHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    try {
      headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // a malformed escape: the pair is skipped, as the SDK does
    }
  }
  return headers;
}
