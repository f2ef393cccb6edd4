import { verify, type KeyObject } from 'node:crypto';
import { isLowerHexFrom } from '../lowerHex';

/**
 * What every record of both logs carries beside its `hash` (`metadata.signature` in the Agent Trace, the
 * top-level `signature` of a governance record, whose chain fields are top-level too): an Ed25519
 * signature over the record's canonical form including `hash`, or the writer's note that it had no key.
 */
export interface RecordSignature {
  /** `ed25519:` and the first 128 bits of sha256 over the raw public key, in hex (see keyIdOf). */
  key_id: string;
  /** The 64-byte Ed25519 signature, base64. */
  sig: string;
}

/** A writer that had no key says so, so its records are told apart from those written before signing existed. */
export interface UnsignedNote {
  unsigned: string;
}

export const NO_SIGNING_KEY: UnsignedNote = { unsigned: 'no signing key' };

/** Signs records for one key; `sign` gets the canonical line with `hash`. */
export interface RecordSigner {
  readonly name: string;
  readonly keyId: string;
  sign(text: string): RecordSignature;
  /** Whether `signature` is this key's valid signature over `text`: a writer vouching for a record another process signed. */
  signedByMe(text: string, signature: unknown): boolean;
}

const SIG = /^[A-Za-z0-9+/]{86}==$/;

export function isRecordSignature(value: unknown): value is RecordSignature {
  const v = value as Partial<RecordSignature> | null;
  return typeof value === 'object' && value !== null && typeof v?.key_id === 'string' && typeof v.sig === 'string';
}

export function isUnsignedNote(value: unknown): value is UnsignedNote {
  return typeof value === 'object' && value !== null && typeof (value as Partial<UnsignedNote>).unsigned === 'string';
}

/** A well-formed key id: what can be looked up among the published signers. */
export function isKeyId(value: string): boolean {
  // /^ed25519:[0-9a-f]{32}$/
  return value.length === 40 && value.startsWith('ed25519:') && isLowerHexFrom(value, 8);
}

/** Whether `signature` is `key`'s signature over `text`; a malformed signature is simply not valid. */
export function signatureMatches(text: string, signature: RecordSignature, key: KeyObject): boolean {
  if (!SIG.test(signature.sig)) return false;
  return verify(null, Buffer.from(text, 'utf8'), key, Buffer.from(signature.sig, 'base64'));
}

/** The same, on libuv's thread pool, so a long log's signatures are checked on every core. */
export function signatureMatchesAsync(text: string, signature: RecordSignature, key: KeyObject): Promise<boolean> {
  if (!SIG.test(signature.sig)) return Promise.resolve(false);
  return new Promise((resolve) => {
    verify(null, Buffer.from(text, 'utf8'), key, Buffer.from(signature.sig, 'base64'), (error, ok) => resolve(!error && ok));
  });
}
