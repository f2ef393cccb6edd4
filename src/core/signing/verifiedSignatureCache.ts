import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, realpath, rename, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { errnoOf } from '../ioError';

const DIGEST = 32;

/**
 * Signatures this machine already found valid, so verifying a long log again checks only what is new.
 * An Ed25519 check costs 60-250 µs, 6-25 s for 100k records; reading this set costs milliseconds.
 *
 * An entry is sha256 over (record hash, key id, signature): whether a signature is valid for a record is a
 * fact about those three alone (the hash fixes the signed text once the chain check accepts it, the key
 * id fixes the public key), so an entry never goes stale; trust, which does change, is decided afresh on
 * every verify. Kept beside the anchors, outside the workspace: whoever could forge an entry could move the
 * anchors too. A missing or damaged file only makes verify slower.
 */
export class VerifiedSignatureCache {
  private readonly seen = new Set<string>();
  private added = 0;

  private constructor(
    private readonly file: string,
    private readonly known: Set<string>,
  ) {}

  /** The cache for one log of one workspace under `dir`. */
  static async open(dir: string, workspaceRoot: string, log: string): Promise<VerifiedSignatureCache> {
    const real = await realpath(workspaceRoot).catch(() => workspaceRoot);
    const file = join(dir, `${createHash('sha256').update(real).digest('hex').slice(0, 32)}-${basename(log)}.sigs`);
    const known = new Set<string>();
    try {
      const bytes = await readFile(file);
      if (bytes.length % DIGEST === 0) for (let at = 0; at < bytes.length; at += DIGEST) known.add(bytes.toString('latin1', at, at + DIGEST));
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') known.clear();
    }
    return new VerifiedSignatureCache(file, known);
  }

  /** Whether this exact signature was found valid for this record before; remembers it for `save` either way. */
  has(hash: string, keyId: string, sig: string): boolean {
    const entry = digest(hash, keyId, sig);
    if (!this.known.has(entry)) return false;
    this.seen.add(entry);
    return true;
  }

  add(hash: string, keyId: string, sig: string): void {
    this.seen.add(digest(hash, keyId, sig));
    this.added += 1;
  }

  /** Keeps exactly the entries this verify used, so the file follows the log instead of growing forever. */
  async save(): Promise<void> {
    if (this.added === 0 && this.seen.size === this.known.size) return;
    const bytes = Buffer.alloc(this.seen.size * DIGEST);
    let at = 0;
    for (const entry of this.seen) at += bytes.write(entry, at, 'latin1');
    await mkdir(join(this.file, '..'), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temp, bytes, { mode: 0o600 });
    await rename(temp, this.file);
  }
}

function digest(hash: string, keyId: string, sig: string): string {
  return createHash('sha256').update(`${hash}\n${keyId}\n${sig}`).digest('binary');
}

/** Beside the anchor directory: `<config dir>/intent-governor/verified-signatures`. */
export function signatureCacheDir(anchorDir: string): string {
  return join(anchorDir, '..', 'verified-signatures');
}
