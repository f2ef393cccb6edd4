import type { SigningKey } from './signingKey';

/** The key a signer signs with, or why there is none it can use (absent when there simply is no key). */
export type LoadedSigningKey = { key: SigningKey; problem?: undefined } | { key?: undefined; problem?: string };

/**
 * Port for where a signer keeps its private key: the person's 0600 file under ~/.intent-governor/keys, for the CLI
 * and the extension alike (fileSigningKeyStore.ts); a VS Code profile's SecretStorage, where earlier versions kept
 * the extension's (src/host/trace/secretSigningKeyStore.ts), is only read to take that key over.
 */
export interface SigningKeyStore {
  /** Where the key lives, for messages. */
  readonly location: string;
  load(): Promise<LoadedSigningKey>;
  /** Makes `key` the one records are signed with; a previous key is set aside where the store can, never used again. */
  replace(key: SigningKey): Promise<void>;
}
