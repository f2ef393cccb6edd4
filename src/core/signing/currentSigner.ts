import type { RecordSigner } from './recordSignature';
import { recordSignerFor, type SigningKey } from './signingKey';

/**
 * The key a long-running writer (the extension) signs with right now: none until its key store answered,
 * swapped when a human makes a new key, so no reload is needed. `get` is what the trace writer calls (and the
 * signing guard, before a change): a first key waiting in `makeOnFirstUse` is made then, so opening a folder writes
 * nothing into it.
 */
export class CurrentSigner {
  private signer: RecordSigner | undefined;
  private maker: (() => SigningKey | undefined) | undefined;

  readonly get = (): RecordSigner | undefined => {
    if (!this.signer && this.maker) {
      const key = this.maker();
      if (key) this.use(key);
    }
    return this.signer;
  };

  use(key: SigningKey): void {
    this.maker = undefined;
    this.signer = recordSignerFor(key);
  }

  /** The key to make when a record is first signed; `make` returns undefined when it cannot yet (asked again next time). */
  makeOnFirstUse(make: () => SigningKey | undefined): void {
    if (!this.signer) this.maker = make;
  }
}
