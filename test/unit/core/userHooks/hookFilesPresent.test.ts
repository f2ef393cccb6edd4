import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openHookCall } from '../../../../src/core/agents/hookDoor';
import { geminiDialect } from '../../../../src/core/agents/gemini/geminiDialect';
import { removeTree } from '../../../support/removeTree';

/**
 * A read-only tool a dialect passes through is answered at the door only when no hook file could hold a hook for it:
 * every layer the runner reads counts, not only the governor's own files.
 */
describe('a passed-through tool meets the user hooks of every layer', () => {
  let temp: string;
  let root: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    temp = mkdtempSync(join(tmpdir(), 'ig-hook-files-'));
    root = join(temp, 'ws');
    mkdirSync(join(root, '.orchestration'), { recursive: true });
    env = { HOME: join(temp, 'home'), INTENT_GOVERNOR_HOME: join(temp, 'gh'), INTENT_GOVERNOR_MANAGED_FILE: join(temp, 'managed.json') };
  });
  afterEach(() => removeTree(temp));

  const glob = () => ({ session_id: 's', transcript_path: join(temp, 't.jsonl'), cwd: root, hook_event_name: 'BeforeTool', timestamp: '2026-01-01T00:00:00Z', tool_name: 'glob', tool_input: { pattern: '**/*.ts' } });
  const put = (file: string, text: string) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  };

  it('answers it at the door when there is no hook file at all', () => {
    const step = openHookCall(geminiDialect, glob(), { cwd: root, env });
    assert.equal(step.kind, 'reply');
  });

  const layers: Array<[string, () => void]> = [
    ['~/.claude/settings.json', () => put(join(env.HOME as string, '.claude', 'settings.json'), '{"hooks":{}}')],
    ['~/.agents/hooks.toml', () => put(join(env.HOME as string, '.agents', 'hooks.toml'), '')],
    ['.agents/hooks.toml', () => put(join(root, '.agents', 'hooks.toml'), '')],
    ["the administrator's managed file", () => put(env.INTENT_GOVERNOR_MANAGED_FILE as string, '{}')],
    ['~/.intent-governor/hooks.json', () => put(join(env.INTENT_GOVERNOR_HOME as string, 'hooks.json'), '{}')],
    ['.orchestration/hooks.json', () => put(join(root, '.orchestration', 'hooks.json'), '{}')],
    ['.claude/settings.json', () => put(join(root, '.claude', 'settings.json'), '{}')],
  ];
  for (const [file, create] of layers) {
    it(`sends it to the governor, which runs the hooks, when ${file} exists`, () => {
      create();
      const step = openHookCall(geminiDialect, glob(), { cwd: root, env });
      assert.equal(step.kind, 'decide', file);
    });
  }
});
