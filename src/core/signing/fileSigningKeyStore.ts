import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { chmod, mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoOf } from '../ioError';
import type { RecordSigner } from './recordSignature';
import { parseSigningKey, recordSignerFor, type SigningKey } from './signingKey';
import type { LoadedSigningKey, SigningKeyStore } from './signingKeyStore';
import { homeStore } from '../paths/userStores';

const KEY_FILE = 'signer.json';
/** Keys replaced by a rotation: kept (a person may still need to prove what they signed), never signed with. */
const RETIRED_DIR = 'retired';

/** `<governor home>/keys`: `$INTENT_GOVERNOR_HOME/keys`, else `~/.intent-governor/keys`. */
export function defaultKeysDir(env: NodeJS.ProcessEnv = process.env): string {
  return homeStore('keys', env);
}

/**
 * The CLI's signing key: `<keys dir>/signer.json` (the key as JSON, PEM inside), mode 0600 in a 0700
 * directory owned by this user. Like ssh, a key others can read is not used: it may already be someone
 * else's, and a signature is only worth the key's secrecy.
 */
export class FileSigningKeyStore implements SigningKeyStore {
  readonly location: string;

  constructor(private readonly dir: string) {
    this.location = join(dir, KEY_FILE);
  }

  async load(): Promise<LoadedSigningKey> {
    return this.loadSync();
  }

  /** Synchronous, for a writer that reads the key only when it signs its first record. */
  loadSync(): LoadedSigningKey {
    let text: string;
    try {
      const problem = privateEntryProblem(this.dir, 'directory') ?? privateEntryProblem(this.location, 'file');
      if (problem) return { problem };
      text = readFileSync(this.location, 'utf8');
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return {};
      return { problem: `${this.location} cannot be read (${error instanceof Error ? error.message : String(error)})` };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { problem: `${this.location} is not JSON; move it away and run \`governor keys init\`` };
    }
    const key = parseSigningKey(parsed);
    return typeof key === 'string' ? { problem: `${this.location}: ${key}; move it away and run \`governor keys init\`` } : { key };
  }

  /**
   * Stores `key` unless a key is there already, returning whether it did: another process (a CLI door, another VS
   * Code profile) that made one first wins the link, and its key is the one used.
   */
  createIfAbsent(key: SigningKey): boolean {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    if (process.platform !== 'win32') chmodSync(this.dir, 0o700);
    const temp = this.writeTemp(key);
    try {
      linkSync(temp, this.location);
      return true;
    } catch (error) {
      if (errnoOf(error) === 'EEXIST') return false;
      throw error;
    } finally {
      unlinkSync(temp);
    }
  }

  async replace(key: SigningKey): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    if (process.platform !== 'win32') await chmod(this.dir, 0o700);
    const old = await this.load();
    if (old.key || old.problem) {
      // Even a key that could not be used is moved aside rather than overwritten: it may be the only copy.
      const retired = join(this.dir, RETIRED_DIR);
      await mkdir(retired, { recursive: true, mode: 0o700 });
      const tag = old.key ? `${old.key.created.replace(/[^0-9TZ]/g, '')}-${old.key.key_id.slice(-8)}` : `unusable-${Date.now()}`;
      await rename(this.location, join(retired, `${tag}.json`)).catch((error: unknown) => {
        if (errnoOf(error) !== 'ENOENT') throw error;
      });
    }
    await rename(this.writeTemp(key), this.location);
  }

  /** The key in a new temp file beside its place, 0600 from the first byte ('wx': never through an existing file or link). */
  private writeTemp(key: SigningKey): string {
    const temp = join(this.dir, `.${KEY_FILE}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(key, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return temp;
  }
}

/** Why `path` is not a private `kind` of this user's (a link, the wrong type, readable by others); undefined when it is. */
function privateEntryProblem(path: string, kind: 'file' | 'directory'): string | undefined {
  const stat = lstatSync(path);
  if (kind === 'directory' ? !stat.isDirectory() : !stat.isFile()) return `${path} is not a ${kind} (a link or something else): the signing key is not used`;
  if (process.platform === 'win32') return undefined;
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return `${path} belongs to another user: the signing key is not used`;
  const wanted = kind === 'directory' ? 0o700 : 0o600;
  if ((stat.mode & 0o077) !== 0) {
    return `${path} can be read by others (mode ${(stat.mode & 0o777).toString(8)}): the signing key is not used. If nobody else could have copied it, \`chmod ${wanted.toString(8)} ${path}\`; else make a new one with \`governor keys init --rotate\` and revoke this one`;
  }
  return undefined;
}

/**
 * The CLI doors' signer (`governor mcp`, the hook bridge): the key in `dir`, read when the first record is
 * signed (a hook call that writes nothing never reads it). No usable key: records say they are unsigned,
 * and `governor keys list` tells why.
 */
export function fileSigner(dir: string): () => RecordSigner | undefined {
  let signer: RecordSigner | null | undefined;
  return () => {
    if (signer === undefined) {
      const { key } = new FileSigningKeyStore(dir).loadSync();
      signer = key ? recordSignerFor(key) : null;
    }
    return signer ?? undefined;
  };
}
