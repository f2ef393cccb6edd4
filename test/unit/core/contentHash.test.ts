import { strict as assert } from 'node:assert';
import { contentHash } from '../../../src/core/contentHash';

describe('contentHash', () => {
  it('hashes bytes and their UTF-8 string alike, as sha256:<hex>', () => {
    assert.equal(contentHash('héllo'), contentHash(new TextEncoder().encode('héllo')));
    assert.match(contentHash(''), /^sha256:e3b0c442[0-9a-f]{56}$/);
  });
});
