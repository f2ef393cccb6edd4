import type { RootSnapshot } from './rootSnapshot';

/**
 * A snapshot of the writable roots as JSON, for a command that another process sees finish (an agent's own shell:
 * the hook of its post event, or a reconciliation when that never comes). Identities are decimal strings: the
 * nanosecond times do not fit a JSON number.
 */
export interface StoredSnapshot {
  /** [rel, size, mtimeNs, ctimeNs, ino, mode] */
  entries: Array<[string, string, string, string, string, string]>;
  complete: boolean;
  /** The protected paths found under the roots (absolute): the after-check removes the ones not here. */
  protected?: string[];
}

export function storeSnapshot(snapshot: RootSnapshot): StoredSnapshot {
  const entries: StoredSnapshot['entries'] = [];
  for (const [rel, id] of snapshot.entries) entries.push([rel, String(id.size), String(id.mtimeNs), String(id.ctimeNs), String(id.ino), String(id.mode)]);
  return { entries, complete: snapshot.complete, ...(snapshot.protectedComplete ? { protected: snapshot.protectedInside } : {}) };
}

/** The snapshot back, or undefined when the text is not one (torn, or not ours): the caller cannot diff then. */
export function restoreSnapshot(value: unknown): RootSnapshot | undefined {
  const stored = value as Partial<StoredSnapshot> | null;
  if (typeof stored !== 'object' || stored === null || !Array.isArray(stored.entries) || typeof stored.complete !== 'boolean') return undefined;
  const entries: RootSnapshot['entries'] = new Map();
  try {
    for (const row of stored.entries) {
      if (!Array.isArray(row) || row.length !== 6 || row.some((v) => typeof v !== 'string')) return undefined;
      const [rel, size, mtimeNs, ctimeNs, ino, mode] = row;
      entries.set(rel, { size: BigInt(size), mtimeNs: BigInt(mtimeNs), ctimeNs: BigInt(ctimeNs), ino: BigInt(ino), mode: BigInt(mode) });
    }
  } catch {
    return undefined; // BigInt of something that is not a number
  }
  const known = Array.isArray(stored.protected) && stored.protected.every((p) => typeof p === 'string');
  // Without the list, nothing protected can be told to be new: the after-check leaves everything.
  return { entries, protectedInside: known ? [...(stored.protected as string[])] : [], complete: stored.complete, protectedComplete: known, scanned: 0 };
}
