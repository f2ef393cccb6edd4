import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { isRecordSignature, signatureMatches, type RecordSigner } from './recordSignature';

/**
 * A signer's key pair as it is stored (the CLI's key file, VS Code's SecretStorage). PEM text, so `openssl`
 * and other tools read it; the public half is what gets published as `.orchestration/signers/<name>.pub`.
 */
export interface SigningKey {
  /** The published file's name without `.pub`. */
  name: string;
  key_id: string;
  /** ISO time the key was made. */
  created: string;
  /** PKCS#8 PEM. */
  private_key: string;
  /** SPKI PEM. */
  public_key: string;
}

/** Names that are safe as one file name on every system and readable in a verify report. */
const SIGNER_NAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/;

export function signerNameProblem(name: string): string | undefined {
  if (!SIGNER_NAME.test(name) || name.endsWith('.') || name.endsWith('.pub')) {
    return `'${name}' is not a signer name: use 1-64 letters, digits and . _ @ + - (starting with a letter or digit), e.g. alice@laptop`;
  }
  return undefined;
}

export function generateSigningKey(name: string, now: Date = new Date()): SigningKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    name,
    key_id: keyIdOf(publicKey),
    created: now.toISOString(),
    private_key: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    public_key: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  };
}

/** `ed25519:` + the first 128 bits of sha256 over the raw 32-byte public key, in hex. */
export function keyIdOf(publicKey: KeyObject): string {
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  return `ed25519:${createHash('sha256').update(raw).digest('hex').slice(0, 32)}`;
}

/** An Ed25519 public key from PEM text, or what is wrong with it. */
export function parsePublicKey(text: string): KeyObject | string {
  // createPublicKey would take a private key too, and derive its public half; a private key does not belong here.
  if (/PRIVATE KEY/.test(text)) return 'a PRIVATE key (never publish or copy it; pass its public half, the .pub file)';
  let key: KeyObject;
  try {
    key = createPublicKey(text);
  } catch (error) {
    return `not a PEM public key (${error instanceof Error ? error.message : String(error)})`;
  }
  return key.asymmetricKeyType === 'ed25519' ? key : `a ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519`;
}

/** A stored key checked in full: shape, an Ed25519 private key, its public half and id as stated. */
export function parseSigningKey(value: unknown): SigningKey | string {
  const v = value as Partial<SigningKey> | null;
  if (typeof value !== 'object' || value === null) return 'not a JSON object';
  for (const field of ['name', 'key_id', 'created', 'private_key', 'public_key'] as const) {
    if (typeof v?.[field] !== 'string') return `the field '${field}' is missing`;
  }
  const key = value as SigningKey;
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key.private_key);
  } catch (error) {
    return `the private key cannot be read (${error instanceof Error ? error.message : String(error)})`;
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') return `the private key is ${privateKey.asymmetricKeyType ?? 'unknown'}, not Ed25519`;
  const publicKey = createPublicKey(privateKey);
  if (publicKey.export({ format: 'pem', type: 'spki' }).toString() !== key.public_key) return 'the public key does not belong to the private key';
  if (keyIdOf(publicKey) !== key.key_id) return 'the key id does not match the key';
  return key;
}

/** Signs with `key`; the private key is parsed once. */
export function recordSignerFor(key: SigningKey): RecordSigner {
  const privateKey = createPrivateKey(key.private_key);
  const publicKey = createPublicKey(privateKey);
  return {
    name: key.name,
    keyId: key.key_id,
    sign: (text) => ({ key_id: key.key_id, sig: sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64') }),
    signedByMe: (text, signature) => isRecordSignature(signature) && signature.key_id === key.key_id && signatureMatches(text, signature, publicKey),
  };
}

/** `<user>@<host>`, reduced to the characters a signer name may hold. */
export function defaultSignerName(user: string, host: string): string {
  const clean = (text: string) => text.replace(/[^A-Za-z0-9._+-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').replace(/[.-]+$/, '');
  const name = `${clean(user) || 'signer'}@${clean(host) || 'host'}`.slice(0, 64).replace(/[.-]+$/, '');
  return signerNameProblem(name) ? 'signer' : name;
}
