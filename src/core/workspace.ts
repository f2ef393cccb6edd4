import type { ToolError } from './toolError';

/** What an entry in the workspace is, without following a final symlink. */
export interface EntryInfo {
  kind: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
  mtimeMs: number;
}

/** Where a replace staged the new bytes: while this file exists, the rename has not happened. */
export interface StagedReplace {
  tempPath: string;
}

export interface ReplaceOptions {
  /**
   * Runs after the new bytes are durable in a temp file and right before the rename that publishes them.
   * Returning an error aborts the replace (the temp file is removed) and that error is the result.
   */
  beforeReplace?: (staged?: StagedReplace) => Promise<ToolError | undefined>;
}

/**
 * The port every governed read and write goes through. Paths are absolute and already canonical
 * (see core/paths); adapters do no policy. The Node adapter lives in core, the VS Code one in host.
 */
export interface Workspace {
  /** Absolute, realpath'd workspace root. */
  readonly root: string;
  /** File bytes, or undefined when no file is there. */
  readFile(absPath: string): Promise<Uint8Array | undefined>;
  /** lstat-like information, or undefined when nothing is there. */
  entryInfo(absPath: string): Promise<EntryInfo | undefined>;
  /** Atomically replaces (or creates) a file: temp file in the same directory, fsync, rename. */
  replaceFile(absPath: string, data: Uint8Array, options?: ReplaceOptions): Promise<ToolError | undefined>;
  /** Deletes a file; `beforeReplace` runs right before the unlink. */
  deleteFile(absPath: string, options?: ReplaceOptions): Promise<ToolError | undefined>;
  /** Workspace-relative POSIX paths of files under a directory, sorted, at most `limit`. */
  listFiles(absDir: string, options: { recursive: boolean; limit: number }): Promise<{ files: string[]; truncated: boolean }>;
  /** True when an editor holds unsaved edits for the file (hosts with editors only). */
  hasUnsavedChanges?(absPath: string): Promise<boolean>;
}
