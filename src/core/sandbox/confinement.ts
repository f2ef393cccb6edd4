/** What a confined command may touch; everything else on the machine is read-only to it. */
export interface Confinement {
  /** Realpath'd folders (or single files) the command may write: the scope's roots and the named caches. */
  writable: string[];
  /** Paths under a writable folder that must stay read-only (`.git`, `.orchestration`, agent configuration). */
  readOnlyInside: string[];
  /** The private temp folder (TMPDIR), created for this command and removed after it. */
  tempDir: string;
  /** `network: deny` on the intent: no network namespace to the outside. */
  denyNetwork: boolean;
}
