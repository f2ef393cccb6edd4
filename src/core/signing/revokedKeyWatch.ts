import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FileDerived } from '../io/fileDerived';
import { readRegularFileSync } from '../io/regularFile';
import { keyIdOf, parsePublicKey } from './signingKey';
import { REVOKED_DIR } from './workspaceSigners';

/** A key published in `.orchestration/signers/revoked/`. */
export interface RevokedKey {
  name: string;
  keyId: string;
  /** Workspace-relative path of its .pub file. */
  file: string;
}

/** A .pub file is a PEM public key: a few hundred bytes. */
const MAX_PUB_BYTES = 16 * 1024;

/**
 * Which keys the workspace has revoked, asked before every record a long-lived writer signs (`governor mcp`, the
 * resident, the extension), so a revocation that arrives by `git pull` stops the next write. While the revoked
 * folder is unchanged a question costs one stat of it; adding or moving a .pub changes the folder, and only then
 * are its files read again.
 */
export class RevokedKeyWatch {
  private readonly derived = new FileDerived<ReadonlyMap<string, RevokedKey>>();
  private readonly dir: string;

  constructor(root: string) {
    this.dir = join(root, REVOKED_DIR);
  }

  /** The revoked .pub that holds `keyId`, or undefined when the workspace has not revoked it. */
  revoked(keyId: string): RevokedKey | undefined {
    return this.derived.get([this.dir], () => readRevokedKeys(this.dir)).get(keyId);
  }
}

/** The keys of the revoked folder by key id; a file that is not a key revokes nothing (`keys list` names it). */
function readRevokedKeys(dir: string): ReadonlyMap<string, RevokedKey> {
  const keys = new Map<string, RevokedKey>();
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.pub'));
  } catch {
    return keys;
  }
  for (const fileName of names) {
    const read = readRegularFileSync(join(dir, fileName), { maxBytes: MAX_PUB_BYTES, noFollow: true });
    if (!read.ok) continue;
    const key = parsePublicKey(read.bytes.toString('utf8'));
    if (typeof key === 'string') continue;
    const keyId = keyIdOf(key);
    if (!keys.has(keyId)) keys.set(keyId, { name: fileName.slice(0, -'.pub'.length), keyId, file: `${REVOKED_DIR}/${fileName}` });
  }
  return keys;
}

/** What a writer says instead of signing with a revoked key: which key, where it was revoked, and what to run. */
export function revokedKeyRefusal(signer: { name: string; keyId: string }, revoked: RevokedKey): string {
  return (
    `This machine's signing key ${signer.name} (${signer.keyId}) is revoked in this workspace (${revoked.file}), so nothing is signed with it ` +
    'and nothing was changed or recorded. On this machine run `governor keys init --rotate` (in VS Code: "Intent Governor: Initialize Signing Key", ' +
    'then Rotate), commit the new .orchestration/signers/<name>.pub it writes so others trust it, then try again.'
  );
}
