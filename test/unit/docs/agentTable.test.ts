import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENTS } from '../../../src/core/agents/registry';

const REPO = join(__dirname, '..', '..', '..');

/** The rows of README's "Which agents, and how" table, by the agent named in the first cell. */
function supportRows(): string[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf('## Which agents, and how');
  assert.ok(start >= 0, "README has a 'Which agents, and how' section");
  const lines = readme.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('| '));
  const end = lines.findIndex((line, index) => index > first && !line.startsWith('| '));
  const table = lines.slice(first + 2, end);
  return table.map((row) => row.split('|')[1]?.trim() ?? '');
}

describe("README's agent support table and CONTRIBUTING's 'Adding an agent' follow the registry", () => {
  it('has one row per registered agent, in the registry order, and no other', () => {
    const rows = supportRows();
    assert.equal(rows.length, AGENTS.length, rows.join('\n'));
    AGENTS.forEach((agent, index) => assert.ok(rows[index].startsWith(agent.label), `row ${index + 1} is '${rows[index]}', expected ${agent.label}`));
  });

  it("names every file CONTRIBUTING's 'Adding an agent' tells a contributor to copy or touch", () => {
    const contributing = readFileSync(join(REPO, 'CONTRIBUTING.md'), 'utf8');
    const section = contributing.slice(contributing.indexOf('### Adding an agent'));
    for (const path of section.match(/`(src|test)\/[^`]+\.ts`/g) ?? []) {
      const file = path.slice(1, -1);
      assert.doesNotThrow(() => readFileSync(join(REPO, file)), `${file} named in CONTRIBUTING does not exist`);
    }
    for (const file of ['geminiAgent.ts', 'geminiDialect.ts', 'geminiHookConfig.ts']) assert.doesNotThrow(() => readFileSync(join(REPO, 'src/core/agents/gemini', file)), file);
  });
});
