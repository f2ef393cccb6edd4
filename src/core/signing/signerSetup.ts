import { generateSigningKey, type SigningKey } from './signingKey';
import type { SigningKeyStore } from './signingKeyStore';
import { freeSignerName, loadWorkspaceSigners, publishSigner, type PublishOutcome } from './workspaceSigners';

export type SetupOutcome =
  /** The signer already had a key: it is (now) published in this workspace. */
  | { kind: 'existing'; key: SigningKey; published: Extract<PublishOutcome, { ok: true }> }
  /** A new key signs from now on; `previous` (rotated out) keeps its .pub, so what it signed stays valid. */
  | { kind: 'created'; key: SigningKey; file: string; previous?: SigningKey }
  | { kind: 'refused'; message: string };

export interface SetupOptions {
  /** The name for a new key; default `defaultName`, or the next free `<name>-N` when it is taken. */
  name?: string;
  defaultName: string;
  /** Make a new key even though there is one. */
  rotate: boolean;
}

/**
 * What `governor keys init` and *Initialize Signing Key* do: make a signer's key pair (or keep the one it
 * has) and publish its public half as `.orchestration/signers/<name>.pub`. A new key is published before it
 * is stored, so a refused name leaves the old key in use and nothing changed.
 */
export async function setUpSigningKey(root: string, store: SigningKeyStore, options: SetupOptions): Promise<SetupOutcome> {
  const current = await store.load();
  if (current.problem && !options.rotate) return { kind: 'refused', message: current.problem };
  if (current.key && !options.rotate) {
    if (options.name && options.name !== current.key.name) {
      return { kind: 'refused', message: `This signer's key is ${current.key.name} (${current.key.key_id}); rotate to make a new one named ${options.name}.` };
    }
    const published = await publishSigner(root, current.key.name, current.key.public_key);
    return published.ok ? { kind: 'existing', key: current.key, published } : { kind: 'refused', message: published.message };
  }
  const signers = await loadWorkspaceSigners(root);
  // A rotated key never takes the old key's name, which other workspaces may have published.
  const name = options.name ?? freeSignerName(signers, current.key?.name ?? options.defaultName, current.key ? [current.key.name] : []);
  const key = generateSigningKey(name);
  const published = await publishSigner(root, key.name, key.public_key);
  if (!published.ok) return { kind: 'refused', message: published.message };
  await store.replace(key);
  return { kind: 'created', key, file: published.file, previous: current.key };
}
