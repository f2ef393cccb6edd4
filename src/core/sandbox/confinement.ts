/** A protected name that does not exist yet under a writable folder: an empty read-only mount keeps it from being made. */
export interface Placeholder {
  /** Realpath'd parent folder + protected name (`<root>/.claude`, `<root>/.mcp.json`). */
  path: string;
  kind: 'dir' | 'file';
}

/**
 * What a confined command may touch; everything else on the machine is read-only to it. The kernel is told this
 * value in order: caches writable, the workspace read-only again (a cache that holds it reopens nothing), the scope's
 * roots and temp folder writable, the protected paths and placeholders read-only, the governor's stores hidden.
 */
export interface Confinement {
  /** Realpath'd workspace root: bound read-only again after the caches. */
  workspaceRoot: string;
  /** Realpath'd package caches under the home directory, writable (bound before the workspace). */
  needs: string[];
  /** Realpath'd folders (or single files) of the workspace the command may write: the scope's roots. */
  writable: string[];
  /** Existing paths under a writable folder that must stay read-only (`.git`, `.orchestration`, agent configuration). */
  readOnlyInside: string[];
  /** Protected names absent under a writable folder, bound read-only from an empty folder or file. */
  placeholders: Placeholder[];
  /** An empty folder and an empty file outside every writable place: the sources of the placeholders. */
  emptySource: { dir: string; file: string };
  /** The governor's stores (keys, the resident's endpoint and token, hook approvals, logs): not visible at all. */
  hidden: string[];
  /** The private temp folder (TMPDIR), created for this command and removed after it. */
  tempDir: string;
  /** `network: deny` on the intent: no network namespace to the outside. */
  denyNetwork: boolean;
  /**
   * With `network: deny`: the seccomp program (a file) that refuses unix sockets, the write gate (a program, see
   * writeGate.ts) that lets the command open files for writing only in its writable places, and the folders where
   * sockets and FIFOs of running services live (/run, /tmp, /var/tmp, $XDG_RUNTIME_DIR), replaced by empty ones.
   */
  unixDenied?: { filterFile: string; writeGate: string; runtimeDirs: string[] };
}
