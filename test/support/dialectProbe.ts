import { strict as assert } from 'node:assert';
import type { HookDialect, HookEvent } from '../../src/core/agents/common/hookDialect';
import type { NativeCall, ToolMapping } from '../../src/core/agents/common/nativeCall';
import { hookFixture } from './runHook';

/** What every dialect's unit tests ask of it: map a tool in a workspace, unwrap governed calls or a refusal, parse a captured payload. */
export interface DialectProbe {
  map(tool: string, input: Record<string, unknown>, cwd?: string): ToolMapping;
  calls(mapping: ToolMapping): NativeCall[];
  reason(mapping: ToolMapping): string;
  parsed(fixture: string): HookEvent;
}

/** `root()` is the test's workspace (made fresh per test); fixtures are read from test/fixtures/hooks/<agent>/. */
export function dialectProbe(dialect: HookDialect, agent: string, root: () => string): DialectProbe {
  return {
    map: (tool, input, cwd = root()) => dialect.mapTool(tool, input, { cwd, workspace: root() }),
    calls(mapping) {
      assert.equal(mapping.kind, 'governed', JSON.stringify(mapping));
      return mapping.kind === 'governed' ? mapping.calls : [];
    },
    reason(mapping) {
      assert.equal(mapping.kind, 'refused', JSON.stringify(mapping));
      return mapping.kind === 'refused' ? mapping.reason : '';
    },
    parsed(fixture) {
      const result = dialect.parse(JSON.parse(hookFixture(agent, fixture, root())));
      assert.ok(result.ok, result.ok ? '' : result.message);
      return result.event;
    },
  };
}
