import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHooksConfig } from '../../../../src/core/userHooks/hooksConfig';

/** The worked example of docs/user-hooks.md is a policy users copy: it must load exactly as written, every hook of it. */
describe("docs/user-hooks.md's worked hooks example", () => {
  it('parses without problems into the hooks it shows', () => {
    const readme = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'user-hooks.md'), 'utf8');
    const section = readme.slice(readme.indexOf('**A worked example**'));
    const json = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
    assert.ok(json, 'the example is in docs/user-hooks.md');
    const parsed = parseHooksConfig(JSON.parse(json), { layer: 'project', file: '.orchestration/hooks.json' }, { strict: true });
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
    assert.deepEqual(
      parsed.hooks.map((h) => `${h.event}:${h.action.type}`),
      ['PreToolUse:command', 'PreToolUse:command', 'PreToolUse:http', 'PreToolUse:command', 'PostToolUse:command', 'PostToolUse:command', 'UserPromptSubmit:command', 'PermissionRequest:prompt', 'Stop:command'],
    );
  });
});
