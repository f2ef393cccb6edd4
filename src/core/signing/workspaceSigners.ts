import type { KeyObject } from 'node:crypto';
import { lstat, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoOf } from '../ioError';
import { problemError, readRegularFile } from '../io/regularFile';
import { readRevocationPoint, revocationPointFile, writeRevocationPoint, type LogPosition, type RevocationPoint } from './revocationPoint';
import { gitSignerPeople, type SignerPeople } from './signerPeople';
import { keyIdOf, parsePublicKey, signerNameProblem } from './signingKey';

/**
 * The workspace's signers: `.orchestration/signers/<name>.pub` (trusted) and
 * `.orchestration/signers/revoked/<name>.pub` (revoked). Committed and reviewed like code, and a protected
 * path agents cannot write. A key is rotated by adding a file (the old one stays, so its records stay
 * valid) and revoked by moving its file into `revoked/`, which keeps it known: its records then say
 * "revoked" instead of "unknown key". `revoked/<name>.json` beside it says where the logs stood when it was
 * revoked (revocationPoint.ts): what the key signed before that still verifies.
 */
export const SIGNERS_DIR = '.orchestration/signers';
export const REVOKED_DIR = `${SIGNERS_DIR}/revoked`;

/** A .pub file is a PEM public key: a few hundred bytes. Anything far bigger is not one. */
const MAX_PUB_BYTES = 16 * 1024;

export interface PublishedSigner {
  name: string;
  keyId: string;
  status: 'trusted' | 'revoked';
  /** Workspace-relative path of its .pub file. */
  file: string;
  key: KeyObject;
  /** A revoked key's revocation point: records it signed up to there were signed while it was trusted. */
  revokedAt?: RevocationPoint;
}

export interface SignerSet {
  byKeyId: ReadonlyMap<string, PublishedSigner>;
  /** Every signer, trusted first, by name. */
  signers: PublishedSigner[];
  /** Files in the signers folders that are not usable keys (not trusted, listed so a human fixes them). */
  problems: { file: string; problem: string }[];
  /** Who a key belongs to, as git tells it, for messages about unknown and revoked keys. */
  people?: SignerPeople;
}

export async function loadWorkspaceSigners(root: string): Promise<SignerSet> {
  const problems: SignerSet['problems'] = [];
  const trusted = await readPubFiles(root, SIGNERS_DIR, 'trusted', problems);
  const revoked = await readPubFiles(root, REVOKED_DIR, 'revoked', problems);
  for (const signer of revoked) {
    const point = await readRevocationPoint(root, signer.file, signer.keyId);
    // A point that cannot be used softens nothing: every record of the key stays revoked (fail closed).
    if (point && 'problem' in point) problems.push({ file: revocationPointFile(signer.file), problem: `${point.problem}: every record of ${signer.name} counts as revoked` });
    else if (point) signer.revokedAt = point;
  }
  const byKeyId = new Map<string, PublishedSigner>();
  // Revoked first: a key that is both published and revoked is revoked (fail closed).
  for (const signer of [...revoked, ...trusted]) if (!byKeyId.has(signer.keyId)) byKeyId.set(signer.keyId, signer);
  return { byKeyId, signers: [...trusted, ...revoked], problems, people: gitSignerPeople(root) };
}

async function readPubFiles(root: string, dir: string, status: PublishedSigner['status'], problems: SignerSet['problems']): Promise<PublishedSigner[]> {
  let names: string[];
  try {
    names = (await readdir(join(root, dir))).filter((n) => n.endsWith('.pub')).sort();
  } catch (error) {
    if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') return [];
    throw error;
  }
  const signers: PublishedSigner[] = [];
  for (const fileName of names) {
    const file = `${dir}/${fileName}`;
    const read = await readPubFile(join(root, file));
    if (typeof read === 'string') problems.push({ file, problem: read });
    else signers.push({ name: fileName.slice(0, -'.pub'.length), keyId: keyIdOf(read), status, file, key: read });
  }
  return signers.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A regular file (a link could point anywhere outside review) holding one Ed25519 PEM public key. */
async function readPubFile(path: string): Promise<KeyObject | string> {
  // Checked on what was opened (no link followed, without blocking on a FIFO), not on an lstat before the open.
  const read = await readRegularFile(path, { maxBytes: MAX_PUB_BYTES, noFollow: true });
  if (!read.ok) {
    if (read.problem.kind === 'too_large') return `${read.problem.size} bytes, too big for a public key: not trusted`;
    if (read.problem.kind === 'not_regular') return 'not a regular file (a link or a folder): not trusted';
    throw problemError(path, read.problem);
  }
  const key = parsePublicKey(read.bytes.toString('utf8'));
  return typeof key === 'string' ? `${key}: not trusted` : key;
}

export type PublishOutcome =
  /** `point`: a revocation's revocationPoint file, when one was written. */
  | { ok: true; file: string; keyId: string; already: boolean; point?: string }
  | { ok: false; message: string };

/**
 * Writes `publicKeyPem` as `.orchestration/signers/<name>.pub` (a human's act: the CLI or the palette, never
 * an agent). Publishing the same key again is a no-op; a different key under a taken name is refused,
 * because replacing a file would make the records of the old key unknown, and a revoked key is refused
 * until a human takes it out of revoked/.
 */
export async function publishSigner(root: string, name: string, publicKeyPem: string): Promise<PublishOutcome> {
  const bad = signerNameProblem(name);
  if (bad) return { ok: false, message: bad };
  const key = parsePublicKey(publicKeyPem);
  if (typeof key === 'string') return { ok: false, message: `The key for ${name} is ${key}.` };
  const keyId = keyIdOf(key);
  const signers = await loadWorkspaceSigners(root);
  const known = signers.byKeyId.get(keyId);
  if (known?.status === 'revoked') {
    return { ok: false, message: `Key ${keyId} was revoked (${known.file}). If that was a mistake, move the file back to ${SIGNERS_DIR}/ by hand.` };
  }
  const file = `${SIGNERS_DIR}/${name}.pub`;
  const taken = signers.signers.find((s) => s.file === file) ?? signers.problems.find((p) => p.file === file);
  if (taken && 'keyId' in taken && taken.keyId === keyId) return { ok: true, file, keyId, already: true };
  if (taken) return { ok: false, message: `${file} already holds another key. Choose another name (--name): rotating means adding a file, so records signed with the old key stay valid.` };
  if (known) return { ok: true, file: known.file, keyId, already: true };
  await mkdir(join(root, SIGNERS_DIR), { recursive: true });
  await writeFile(join(root, file), key.export({ format: 'pem', type: 'spki' }).toString(), { flag: 'wx' });
  return { ok: true, file, keyId, already: false };
}

/**
 * Moves `<name>.pub` into revoked/. With `logs` (where each log stands now), writes the revocation point beside it:
 * records the key signed up to here still verify, later ones are revoked. Without it, every one is revoked.
 */
export async function revokeSigner(root: string, name: string, logs?: Record<string, LogPosition>, now: Date = new Date()): Promise<PublishOutcome> {
  const bad = signerNameProblem(name);
  if (bad) return { ok: false, message: bad };
  const signers = await loadWorkspaceSigners(root);
  const signer = signers.signers.find((s) => s.status === 'trusted' && s.name === name);
  if (!signer) {
    const revoked = signers.signers.find((s) => s.name === name);
    if (revoked) return { ok: false, message: `${name} is already revoked (${revoked.file}).` };
    return { ok: false, message: `There is no ${SIGNERS_DIR}/${name}.pub. \`governor keys list\` shows the signers.` };
  }
  const file = `${REVOKED_DIR}/${name}.pub`;
  await mkdir(join(root, REVOKED_DIR), { recursive: true });
  for (const taken of logs ? [file, revocationPointFile(file)] : [file]) {
    try {
      await lstat(join(root, taken));
      return { ok: false, message: `${taken} already exists; rename or remove it by hand.` };
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw error;
    }
  }
  await rename(join(root, signer.file), join(root, file));
  const point = logs ? await writeRevocationPoint(root, file, { key_id: signer.keyId, revoked_at: now.toISOString(), logs }) : undefined;
  return { ok: true, file, keyId: signer.keyId, already: false, ...(point ? { point } : {}) };
}

/**
 * `base`, or `base-2`, `base-3`, … : the first name no file in the signers folders (trusted or revoked)
 * uses, nor `alsoTaken`, so a rotated key is published beside the old one instead of over it.
 */
export function freeSignerName(signers: SignerSet, base: string, alsoTaken: string[] = []): string {
  const taken = new Set([...signers.signers.map((s) => s.name), ...signers.problems.map((p) => p.file.slice(p.file.lastIndexOf('/') + 1, -'.pub'.length)), ...alsoTaken]);
  if (!taken.has(base)) return base;
  const stem = base.replace(/-\d+$/, '').slice(0, 60);
  for (let n = 2; ; n++) if (!taken.has(`${stem}-${n}`)) return `${stem}-${n}`;
}
