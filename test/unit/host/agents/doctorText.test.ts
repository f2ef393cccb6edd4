import { strict as assert } from 'node:assert';
import type { AgentDoorReport, DoctorReport } from '../../../../src/core/agents/doctor/doctorReport';
import { doctorPickItems, doctorSummary } from '../../../../src/host/agents/doctorText';

const door = (agent: string, label: string, verdict: AgentDoorReport['verdict'], detail = '[NO_ACTIVE_INTENT] No intent.'): AgentDoorReport => ({
  agent,
  label,
  verdict,
  ...(verdict === 'not installed' ? {} : { door: 'command hook' as const }),
  hookFile: `.${agent}/hooks.json`,
  version: 'not found',
  detail,
  ...(verdict === 'enforced' ? {} : { fix: `run \`governor hooks install --agent ${agent}\`` }),
});

const report = (agents: AgentDoorReport[]): DoctorReport => ({ workspace: '/ws', canary: { path: '.intent-governor-doctor/canary-1.txt', sessionId: 'doctor:1' }, agents, checks: [], notes: [], ok: false });

describe('Check Agent Hooks (Doctor) in the window', () => {
  it('lists installed doors first, says which are broken and offers to reinstall only those', () => {
    const items = doctorPickItems(report([door('cursor', 'Cursor', 'not installed'), door('claude', 'Claude Code', 'enforced'), door('gemini', 'Gemini CLI', 'broken', 'the canary write was let through.')]));
    assert.deepEqual(
      items.map((i) => [i.label, i.description, i.reinstall]),
      [
        ['$(pass) Claude Code', 'enforced · command hook · not found', false],
        ['$(error) Gemini CLI', 'broken · command hook · not found', true],
        ['$(circle-slash) Cursor', 'not installed', false],
      ],
    );
    assert.match(items[1].detail, /let through\. Pick to reinstall its hooks\.$/);
  });

  it('summarises: broken doors as a warning naming them, all refusing as information, none installed', () => {
    assert.deepEqual(doctorSummary(report([door('claude', 'Claude Code', 'enforced'), door('gemini', 'Gemini CLI', 'broken')])), {
      level: 'warning',
      text: 'Intent Governor: 1 of 2 installed agent doors do not refuse: Gemini CLI (broken).',
    });
    assert.equal(doctorSummary(report([door('claude', 'Claude Code', 'enforced')])).level, 'info');
    assert.match(doctorSummary(report([door('cursor', 'Cursor', 'not installed')])).text, /no agent hooks are installed/);
  });
});
