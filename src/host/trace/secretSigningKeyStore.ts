import type * as vscode from 'vscode';
import { parseSigningKey, type SigningKey } from '../../core/signing/signingKey';
import type { LoadedSigningKey, SigningKeyStore } from '../../core/signing/signingKeyStore';

/** Where earlier versions kept a VS Code profile's signing key (SecretStorage); read to take that key over (personalKey.ts). */
export const SIGNING_KEY_SECRET = 'intentGovernor.signingKey';
/** A rotated-out key is kept under its id, like the CLI's keys/retired/. */
const RETIRED_PREFIX = 'intentGovernor.signingKey.retired.';

/** A profile's signing key in SecretStorage, as earlier versions kept one per VS Code profile. */
export class SecretSigningKeyStore implements SigningKeyStore {
  readonly location = `VS Code's secret storage (${SIGNING_KEY_SECRET})`;

  constructor(private readonly secrets: Pick<vscode.SecretStorage, 'get' | 'store'>) {}

  async load(): Promise<LoadedSigningKey> {
    const text = await this.secrets.get(SIGNING_KEY_SECRET);
    if (text === undefined) return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { problem: `the signing key in ${this.location} is not JSON; run Initialize Signing Key to make a new one` };
    }
    const key = parseSigningKey(parsed);
    return typeof key === 'string' ? { problem: `the signing key in ${this.location}: ${key}; run Initialize Signing Key to make a new one` } : { key };
  }

  async replace(key: SigningKey): Promise<void> {
    const old = await this.secrets.get(SIGNING_KEY_SECRET);
    if (old !== undefined) {
      const id = (() => {
        try {
          return String((JSON.parse(old) as { key_id?: unknown }).key_id ?? Date.now());
        } catch {
          return String(Date.now());
        }
      })();
      await this.secrets.store(`${RETIRED_PREFIX}${id}`, old);
    }
    await this.secrets.store(SIGNING_KEY_SECRET, JSON.stringify(key));
  }
}
