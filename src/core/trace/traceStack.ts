import type { RecordSigner } from '../signing/recordSignature';
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
}

export interface TraceStack {
  sink: JsonlTraceSink;
  anchors: FileAnchorStore;
}

/**
 * The trace writer and its anchors, built the same way for every door (extension, `governor mcp`, the
 * headless hook, `governor check` and `trace verify`): one anchor directory per machine, so a check sees
 * what any door wrote, and writers taking turns find the anchor at the head instead of re-verifying.
 */
export function createTraceStack(options: TraceStackOptions): TraceStack {
  const anchors = createAnchorStore(options);
  const sink = new JsonlTraceSink({ workspaceRoot: options.workspaceRoot, toolVersion: options.toolVersion, anchors, fsync: options.fsync, signer: options.signer, governorHome: options.governorHome });
  return { sink, anchors };
}

/** The anchors alone, for doors that only verify (`governor check`, `governor trace verify|reanchor`). */
export function createAnchorStore(options: Pick<TraceStackOptions, 'workspaceRoot' | 'anchorDir' | 'legacyAnchorDir'>): FileAnchorStore {
  return new FileAnchorStore(options.workspaceRoot, options.anchorDir ?? defaultAnchorDir(), { adoptFrom: options.legacyAnchorDir });
}
