import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeHookCall, openHookCall } from '../../../../src/core/agents/hookDoor';
import type { HookDialect, HookReply } from '../../../../src/core/agents/common/hookDialect';
import { AGENTS } from '../../../../src/core/agents/registry';
import { hookFixture } from '../../../support/runHook';
import { removeTree } from '../../../support/removeTree';

/**
 * Every registered agent's hook door, against the same malformed and unknown inputs: each must be refused in the
 * agent's blocking terms, never answered with silence. A new agent is covered by adding it to the registry and a
 * line to SAMPLES below (the first test fails until it has one).
 */
type Json = Record<string, unknown>;

interface Sample {
  /** A captured pre-tool payload under test/fixtures/hooks/<agent>/. */
  fixture: string;
  /** Where the payload names its event (absent: the agent tells events apart by their fields). */
  eventField?: string;
  /** The fields that identify the session, all removed for the "no session" case. */
  sessionFields: string[];
  /** Sets the tool's name (to one the agent does not have). */
  setTool(payload: Json, name: string): void;
  /** Removes the tool's input. */
  dropInput(payload: Json): void;
}

const flat = (toolField: string, inputField: string): Pick<Sample, 'setTool' | 'dropInput'> => ({
  setTool: (p, name) => void (p[toolField] = name),
  dropInput: (p) => void delete p[inputField],
});

const SAMPLES: Record<string, Sample> = {
  claude: { fixture: 'pre-write-in-scope', eventField: 'hook_event_name', sessionFields: ['session_id'], ...flat('tool_name', 'tool_input') },
  vscode: { fixture: 'pre-create-file-in-scope', eventField: 'hook_event_name', sessionFields: ['session_id'], ...flat('tool_name', 'tool_input') },
  cursor: { fixture: 'pre-tool-use-write-in-scope', eventField: 'hook_event_name', sessionFields: ['conversation_id'], ...flat('tool_name', 'tool_input') },
  gemini: { fixture: 'before-write-file-in-scope', eventField: 'hook_event_name', sessionFields: ['session_id'], ...flat('tool_name', 'tool_input') },
  codex: { fixture: 'pre-apply-patch', eventField: 'hook_event_name', sessionFields: ['session_id'], ...flat('tool_name', 'tool_input') },
  copilot: { fixture: 'pre-create-in-scope', eventField: 'hookName', sessionFields: ['sessionId'], ...flat('toolName', 'toolArgs') },
  opencode: { fixture: 'pre-write', eventField: 'event', sessionFields: ['sessionID'], ...flat('tool', 'args') },
  qwen: { fixture: 'pre-write-file-in-scope', eventField: 'hook_event_name', sessionFields: ['session_id'], ...flat('tool_name', 'tool_input') },
  droid: { fixture: 'pre-create-in-scope', eventField: 'hook_event_name', sessionFields: ['session_id'], ...flat('tool_name', 'tool_input') },
  cline: {
    fixture: 'pre-editor',
    eventField: 'hookName',
    sessionFields: ['taskId', 'sessionContext'],
    setTool: (p, name) => {
      (p.tool_call as Json).name = name;
      (p.preToolUse as Json).toolName = name;
    },
    dropInput: (p) => {
      delete (p.tool_call as Json).input;
      delete (p.preToolUse as Json).parameters;
    },
  },
};

/** Whether a reply stops the call in any of the agents' blocking terms (exit 2 with a reason, or a deny/cancel answer). */
function blocks(reply: HookReply): boolean {
  if (reply.exitCode === 2 && reply.stderr.trim() !== '') return true;
  let out: Json;
  try {
    out = JSON.parse(reply.stdout.trim().split('\n').pop() ?? '') as Json;
  } catch {
    return false;
  }
  const specific = (out.hookSpecificOutput ?? {}) as Json;
  return specific.permissionDecision === 'deny' || out.permissionDecision === 'deny' || out.permission === 'deny' || out.decision === 'deny' || out.decision === 'block' || out.cancel === true;
}

/** Misspellings and unknown names of an event, as an attacker would send them. */
function eventVariants(name: string): string[] {
  return [name.toLowerCase(), name.toUpperCase(), `${name} `, `${name}X`, 'SomethingNew', ''].filter((variant) => variant !== name);
}

describe('every agent door refuses what it cannot map (fail closed by construction)', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'ig-fail-closed-'));
    mkdirSync(join(root, '.orchestration'));
  });
  afterEach(() => removeTree(root));

  const place = () => ({ cwd: root, env: { ...process.env, INTENT_GOVERNOR_HOME: join(root, 'home') } });
  const sample = (id: string): Json => JSON.parse(hookFixture(id, SAMPLES[id].fixture, root)) as Json;
  const answered = (dialect: HookDialect, payload: unknown): HookReply => {
    const step = openHookCall(dialect, payload, place());
    // A governor that would allow anything: what is refused here is refused by the door itself.
    return step.kind === 'reply' ? step.reply : closeHookCall(dialect, step, { decision: 'allow' });
  };

  it('has a sample pre-tool payload for every registered agent', () => {
    assert.deepEqual(AGENTS.map((agent) => agent.id).filter((id) => !Object.hasOwn(SAMPLES, id)), []);
  });

  for (const agent of AGENTS) {
    describe(agent.label, () => {
      it('goes to the governor for its own well-formed pre-tool payload (the sample is valid)', () => {
        assert.equal(openHookCall(agent.dialect, sample(agent.id), place()).kind, 'decide');
      });

      it('refuses input that is not a JSON object', () => {
        for (const payload of [null, [], 'PreToolUse', 42, true, {}]) assert.ok(blocks(answered(agent.dialect, payload)), `${JSON.stringify(payload)} was not refused`);
      });

      it('refuses a tool call under a misspelled or unknown event name', () => {
        const field = SAMPLES[agent.id].eventField;
        assert.ok(field, 'the sample names its event field');
        const original = sample(agent.id)[field];
        for (const variant of eventVariants(typeof original === 'string' ? original : 'PreToolUse')) {
          const reply = answered(agent.dialect, { ...sample(agent.id), [field]: variant });
          assert.ok(blocks(reply), `event '${variant}' was answered ${JSON.stringify(reply)}`);
        }
      });

      it('refuses a tool call with no session, or with no tool input', () => {
        const noSession = sample(agent.id);
        for (const field of SAMPLES[agent.id].sessionFields) delete noSession[field];
        assert.ok(blocks(answered(agent.dialect, noSession)), 'no session');
        const noInput = sample(agent.id);
        SAMPLES[agent.id].dropInput(noInput);
        assert.ok(blocks(answered(agent.dialect, noInput)), 'no tool input');
      });

      it('refuses a tool it does not know, even when the governor would allow it', () => {
        const payload = sample(agent.id);
        SAMPLES[agent.id].setTool(payload, 'FreshlyInventedTool');
        assert.ok(blocks(answered(agent.dialect, payload)));
      });

      it('refuses when the governor answers something that is not allow, deny or ask', () => {
        const step = openHookCall(agent.dialect, sample(agent.id), place());
        assert.equal(step.kind, 'decide');
        if (step.kind === 'decide') assert.ok(blocks(closeHookCall(agent.dialect, step, { decision: 'maybe' } as never)));
      });

      it('refuses when its dialect throws while reading or answering', () => {
        const broken = (part: 'parse' | 'mapTool' | 'render'): HookDialect => ({
          ...agent.dialect,
          [part]: () => {
            throw new Error(`${part} broke`);
          },
        });
        assert.ok(blocks(answered(broken('parse'), sample(agent.id))), 'parse');
        assert.ok(blocks(answered(broken('mapTool'), sample(agent.id))), 'mapTool');
        assert.ok(blocks(answered(broken('render'), sample(agent.id))), 'render');
      });

      it('renders a deny of a pre-tool call as a refusal', () => {
        const step = openHookCall(agent.dialect, sample(agent.id), place());
        assert.equal(step.kind, 'decide');
        if (step.kind === 'decide') assert.ok(blocks(closeHookCall(agent.dialect, step, { decision: 'deny', reason: 'out of scope' })));
      });
    });
  }
});
