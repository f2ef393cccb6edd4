import { strict as assert } from 'node:assert';
import { decisionLook } from '../../../src/shared/decisionTone';

describe('decisionLook: how a timeline row reads at a glance', () => {
  it('a refusal by the governor and a rejection by a person both read as refused, in different words', () => {
    assert.deepEqual(decisionLook({ source: 'governance', decision: 'deny' }), { tone: 'refused', label: 'Refused by the governor' });
    assert.deepEqual(decisionLook({ source: 'governance', decision: 'reject' }), { tone: 'refused', label: 'Rejected by a person' });
  });

  it('an approved or allowed change never reads like a refusal', () => {
    assert.equal(decisionLook({ source: 'trace', decision: 'approved' }).tone, 'approved');
    assert.equal(decisionLook({ source: 'trace', decision: 'allow' }).tone, 'allowed');
  });

  it('a governance allow (a foreign MCP tool by policy) is its own tone, not an approved change', () => {
    assert.equal(decisionLook({ source: 'governance', decision: 'allow' }).tone, 'policy');
  });

  it('an unknown governance decision reads as a refusal, naming what it was', () => {
    assert.deepEqual(decisionLook({ source: 'governance', decision: 'quarantine' }), { tone: 'refused', label: 'Refused (quarantine)' });
  });
});
