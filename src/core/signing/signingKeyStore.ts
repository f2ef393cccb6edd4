import type { SigningKey } from './signingKey';

/** The key a signer signs with, or why there is none it can use (absent when there simply is no key). */
export type LoadedSigningKey = { key: SigningKey; problem?: undefined } | { key?: undefined; problem?: string };

/**
 * Port for where a signer keeps its private key: a 0600 file under ~/.intent-governor/keys for the CLI
 * (fileSigningKeyStore.ts), VS Code's SecretStorage for the extension (src/host/trace/secretSigningKeyStore.ts).
 */
export interface SigningKeyStore {
  /** Where the key lives, for messages. */
  readonly location: string;
  load(): Promise<LoadedSigningKey>;
  /** Makes `key` the one records are signed with; a previous key is set aside where the store can, never used again. */
  replace(key: SigningKey): Promise<void>;
}
