import assert from 'node:assert/strict';
import { RESIDENT_V8_FLAGS, residentFlagsToSet } from '../../../src/cli/residentWarmStart';

describe('residentWarmStart: the V8 flags a resident governor sets for itself', () => {
  it('sets each of its flags when node was started without it', () => {
    assert.deepEqual(residentFlagsToSet([]), [...RESIDENT_V8_FLAGS]);
    assert.deepEqual(residentFlagsToSet(['--max-old-space-size=512', '--enable-source-maps']), [...RESIDENT_V8_FLAGS]);
  });

  it('leaves a flag node was given on its command line as it was given, turned on or off', () => {
    assert.deepEqual(residentFlagsToSet(['--always-sparkplug']), []);
    assert.deepEqual(residentFlagsToSet(['--no-always-sparkplug']), []);
    assert.deepEqual(residentFlagsToSet(['--always-sparkplug=false']), []);
  });

  it('reads only options, not a script or its arguments that happen to look alike', () => {
    assert.deepEqual(residentFlagsToSet(['always-sparkplug']), [...RESIDENT_V8_FLAGS]);
  });
});
