import { strict as assert } from 'node:assert';
import type { Intent, IntentsSnapshot } from '../../../../src/core/intents/intent';
import { parseIntentsFile } from '../../../../src/core/intents/intentsFile';
import { intentChoices } from '../../../../src/host/intents/intentChoices';
import { intentStatus } from '../../../../src/host/intents/intentStatus';
import { INTENTS_TEMPLATE } from '../../../../src/host/intents/intentsTemplate';

const intent = (id: string, status: Intent['status']): Intent => ({ id, name: `${id} name`, status, owned_scope: [`src/${id}/**`], constraints: [], acceptance_criteria: [], related: [] });
const valid: IntentsSnapshot = { valid: true, file: '.orchestration/active_intents.yaml', exists: true, intents: [intent('plan', 'PLANNED'), intent('auth', 'IN_PROGRESS')] };

describe('status bar and intent picker', () => {
  it('shows the picked intent, no intent, or an invalid file', () => {
    assert.equal(intentStatus(valid, 'auth').text, '$(shield) auth');
    assert.equal(intentStatus(valid, undefined).text, '$(shield) no intent');
    const invalid: IntentsSnapshot = { valid: false, file: valid.file, problems: [{ file: valid.file, line: 3, column: 5, message: 'bad' }] };
    assert.equal(intentStatus(invalid, 'auth').text, '$(error) intents invalid');
  });

  it('lists IN_PROGRESS intents first as selectable, the rest with the reason they are not', () => {
    const choices = intentChoices(valid.valid ? valid.intents : [], 'auth');
    assert.deepEqual(choices.map((c) => [c.id, c.selectable]), [['auth', true], ['plan', false]]);
    assert.match(choices[0].detail, /IN_PROGRESS · src\/auth\/\*\* · active now/);
    assert.match(choices[1].reason ?? '', /plan is PLANNED; only IN_PROGRESS intents can be selected/);
  });

  it('creates an intents file that is valid and empty', () => {
    assert.deepEqual(parseIntentsFile(INTENTS_TEMPLATE, 'x'), { valid: true, file: 'x', exists: true, intents: [] });
  });
});
