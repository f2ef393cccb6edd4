import { strict as assert } from 'node:assert';
import { CurrentSigner } from '../../../../src/core/signing/currentSigner';
import { generateSigningKey, type SigningKey } from '../../../../src/core/signing/signingKey';

/** The extension's signer: a first key is made when a record is first signed, never when the folder opens. */
describe('CurrentSigner: a first key made on first use', () => {
  it('makes nothing until asked, then once; a maker that cannot yet (Restricted Mode) is asked again', () => {
    const current = new CurrentSigner();
    const key = generateSigningKey('alice@laptop-vscode');
    let trusted = false;
    let made = 0;
    current.makeOnFirstUse((): SigningKey | undefined => {
      if (!trusted) return undefined;
      made += 1;
      return key;
    });
    assert.equal(made, 0, 'nothing is made when the maker is set');
    assert.equal(current.get(), undefined);
    trusted = true;
    assert.equal(current.get()?.keyId, key.key_id);
    assert.equal(current.get()?.keyId, key.key_id);
    assert.equal(made, 1);
  });

  it('a key put in use (Initialize Signing Key) wins over a first key not made yet, and a later maker does not replace it', () => {
    const current = new CurrentSigner();
    let made = 0;
    current.makeOnFirstUse(() => ((made += 1), generateSigningKey('first')));
    const chosen = generateSigningKey('chosen');
    current.use(chosen);
    current.makeOnFirstUse(() => ((made += 1), generateSigningKey('late')));
    assert.equal(current.get()?.keyId, chosen.key_id);
    assert.equal(made, 0);
  });
});
