import { strict as assert } from 'node:assert';
import type { Intent } from '../../../../src/core/intents/intent';
import { renderIntentContext } from '../../../../src/core/intents/intentContext';

const AUTH: Intent = {
  id: 'auth-refactor',
  name: 'Refactor auth',
  status: 'IN_PROGRESS',
  owner: 'alice',
  owned_scope: ['src/auth/**', 'test/auth/**'],
  constraints: ['Keep the public API stable', 'No new dependencies\nunless a human agrees'],
  acceptance_criteria: ['Login works with the new token store'],
  related: ['billing'],
};

describe('intentContext', () => {
  it('gives the agent the intent, its scope and the rules of the road', () => {
    const text = renderIntentContext(AUTH);
    assert.equal(
      text,
      [
        '# Active intent: `auth-refactor` Refactor auth',
        '',
        'Status: IN_PROGRESS · Owner: alice',
        '',
        '## Owned scope',
        '- `src/auth/**`',
        '- `test/auth/**`',
        '',
        'Writes outside these globs are refused with SCOPE_VIOLATION (hidden files need a glob that names them). ' +
          'If the work needs more, call request_scope_expansion with the globs and a reason; a human decides.',
        '',
        '## Constraints',
        '- Keep the public API stable',
        '- No new dependencies',
        '  unless a human agrees',
        '',
        '## Acceptance criteria',
        '- Login works with the new token store',
        '',
        '## Related',
        '- billing',
        '',
        '## Protocol',
        '- Read a file before changing it, and pass the content_hash you got as expected_content_hash; ' +
          'STALE_FILE means it changed since: read it again and redo the change.',
        '- Respect the constraints; the work is done when every acceptance criterion holds.',
      ].join('\n'),
    );
  });

  it('says when there is nothing in a list, and leaves out an empty related section', () => {
    const text = renderIntentContext({ ...AUTH, owner: undefined, owned_scope: [], constraints: [], acceptance_criteria: [], related: [] });
    assert.match(text, /## Owned scope\n\(nothing yet\)\n/);
    assert.match(text, /## Constraints\n\(none\)\n/);
    assert.match(text, /## Acceptance criteria\n\(none stated\)\n/);
    assert.doesNotMatch(text, /Related|Owner/);
  });

  it('warns that writes are refused while the intent is not IN_PROGRESS', () => {
    assert.match(renderIntentContext({ ...AUTH, status: 'BLOCKED' }), /Status: BLOCKED .*\nWrites are refused with INTENT_NOT_ACTIVE until a human sets this intent to IN_PROGRESS\./);
    assert.doesNotMatch(renderIntentContext(AUTH), /INTENT_NOT_ACTIVE/);
  });

  it('keeps a glob containing backticks intact as inline code', () => {
    assert.match(renderIntentContext({ ...AUTH, owned_scope: ['docs/`x`/**'] }), /^- ``docs\/`x`\/\*\*``$/m);
  });
});
