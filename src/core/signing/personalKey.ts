import type { FileSigningKeyStore } from './fileSigningKeyStore';
import type { LoadedSigningKey, SigningKeyStore } from './signingKeyStore';

/** The person's key, and where it came from when it was taken over from a store an earlier version used. */
export type PersonalKey = LoadedSigningKey & { adoptedFrom?: string };

/**
 * The key a person signs with on this machine, whichever door signs: the CLI's doors and every VS Code profile read
 * the one file in the governor's home, so one person on one machine is one signer (one .pub in each workspace). A key
 * `earlier` holds (a VS Code profile's secret storage, where earlier versions kept one key per profile) becomes that
 * key when the file has none yet, so its published .pub stays the one that signs; when another profile or the CLI
 * made the file's key first, that one is used and the earlier key stays published, its records valid.
 */
export async function loadPersonalKey(store: FileSigningKeyStore, earlier?: SigningKeyStore): Promise<PersonalKey> {
  const loaded = store.loadSync();
  if (loaded.key || loaded.problem || !earlier) return loaded;
  const before = await earlier.load();
  if (!before.key) return loaded;
  store.createIfAbsent(before.key);
  const now = store.loadSync();
  return now.key?.key_id === before.key.key_id ? { key: now.key, adoptedFrom: earlier.location } : now;
}
