import type { RecordSigner } from './recordSignature';
import { recordSignerFor, type SigningKey } from './signingKey';

/**
 * The key a long-running writer (the extension) signs with right now: none until its key store answered,
 * swapped when a human makes a new key, so no reload is needed. `get` is what the trace writer calls.
 */
export class CurrentSigner {
  private signer: RecordSigner | undefined;

  readonly get = (): RecordSigner | undefined => this.signer;

  use(key: SigningKey): void {
    this.signer = recordSignerFor(key);
  }
}
