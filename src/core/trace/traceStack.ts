import { governorHome } from '../paths/governorHome';
import type { RecordSigner } from '../signing/recordSignature';
import { exporterFor, type RecordExporter } from '../telemetry/recordExporter';
import { resolveTelemetryConfig } from '../telemetry/telemetryConfig';
import { telemetryStatsFile } from '../telemetry/telemetryStats';
import { defaultAnchorDir, FileAnchorStore } from './anchorStore';
import type { FsyncMode } from './chainedLog';
import { JsonlTraceSink } from './traceWriter';

export interface TraceStackOptions {
  /** Absolute workspace root. */
  workspaceRoot: string;
  /** Recorded as `tool.version` in every trace record. */
  toolVersion: string;
  /** Where anchors live; default `defaultAnchorDir()`. Only tests and `--env`-driven CLI runs pass one. */
  anchorDir?: string;
  /** Where an older version kept this workspace's anchors (the extension's global storage), adopted once. */
  legacyAnchorDir?: string;
  fsync?: FsyncMode;
  /** The signing key of this door (the CLI's key file, the extension's SecretStorage); see JsonlTraceSinkOptions. */
  signer?: () => RecordSigner | undefined;
  /** The governor's home (its redaction key); default governorHome(). */
  governorHome?: string;
  /** The editor's `intentGovernor.telemetry.otlpEndpoint`; the managed file and OTEL_* variables come first. */
  telemetryEndpoint?: string;
  /** Where OTEL_* and the managed file's path are read; default process.env. */
  env?: NodeJS.ProcessEnv;
}

export interface TraceStack {
  sink: JsonlTraceSink;
  anchors: FileAnchorStore;
  /** The OpenTelemetry export, when configured (shared by every stack of the process that sends to the same place). */
  exporter?: RecordExporter;
}

/**
 * The trace writer and its anchors, built the same way for every door (extension, `governor mcp`, the
 * headless hook, `governor check` and `trace verify`): one anchor directory per machine, so a check sees
 * what any door wrote, and writers taking turns find the anchor at the head instead of re-verifying.
 */
export function createTraceStack(options: TraceStackOptions): TraceStack {
  const anchors = createAnchorStore(options);
  const env = options.env ?? process.env;
  // Off unless configured; configured, it only queues here (the OpenTelemetry packages load on the first send).
  const telemetry = resolveTelemetryConfig(env, options.telemetryEndpoint);
  const exporter = telemetry && exporterFor(telemetry, { version: options.toolVersion, statsFile: telemetryStatsFile(options.governorHome ?? governorHome(env)) });
  const sink = new JsonlTraceSink({ workspaceRoot: options.workspaceRoot, toolVersion: options.toolVersion, anchors, fsync: options.fsync, signer: options.signer, governorHome: options.governorHome, exporter });
  return { sink, anchors, exporter };
}

/** The anchors alone, for doors that only verify (`governor check`, `governor trace verify|reanchor`). */
export function createAnchorStore(options: Pick<TraceStackOptions, 'workspaceRoot' | 'anchorDir' | 'legacyAnchorDir'>): FileAnchorStore {
  return new FileAnchorStore(options.workspaceRoot, options.anchorDir ?? defaultAnchorDir(), { adoptFrom: options.legacyAnchorDir });
}
