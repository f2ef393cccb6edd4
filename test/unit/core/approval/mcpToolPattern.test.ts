import { strict as assert } from 'node:assert';
import { doubleUnderscoreTool, mcpToolMatches, parseMcpToolPattern, type McpToolPattern } from '../../../../src/core/approval/mcpToolPattern';

/** What a part matched before: a regex of `.*` for each '*' (kept here as the meaning to keep). */
const regexOf = (glob: string) => new RegExp(`^${glob.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')).join('.*')}$`, 'u');

function parsed(text: string): McpToolPattern {
  const pattern = parseMcpToolPattern(text);
  assert.notEqual(typeof pattern, 'string', String(pattern));
  return pattern as McpToolPattern;
}

describe('mcp_tools patterns', () => {
  it('match as the regexes they replaced, on generated patterns and names', () => {
    const globPieces = ['a', 'b', '_', '-', '.', '*', '**', 'ab'];
    const namePieces = ['a', 'b', '_', '-', '.', 'ab', '\n', '😀', 'A', '/'];
    let state = 7;
    const next = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const word = (pieces: string[], max: number) => Array.from({ length: 1 + Math.floor(next() * max) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
    for (let i = 0; i < 3000; i++) {
      const server = word(globPieces, 4);
      const tool = word(globPieces, 4);
      const pattern = parsed(`${server}/${tool}`);
      const call = { server: word(namePieces, 5), tool: word(namePieces, 5) };
      assert.equal(mcpToolMatches(pattern, call), regexOf(server).test(call.server) && regexOf(tool).test(call.tool), `${server}/${tool} on ${JSON.stringify(call)}`);
    }
  });

  it('read mcp__<server>__<tool> names as the regex did', () => {
    const old = (name: string) => {
      const m = /^mcp__(.+?)__(.+)$/u.exec(name);
      return m ? { server: m[1], tool: m[2] } : undefined;
    };
    for (const name of ['mcp__github__get', 'mcp__a__', 'mcp____x', 'mcp___x__y', 'mcp__a___b', 'mcp__a__b__c', 'mcp__😀__x', 'mcp__a\n__b', 'mcp__a__b\n', 'mcp_a__b', 'mcp__', 'mcp__a\u2028b__c', 'mcp__ab__c_']) {
      assert.deepEqual(doubleUnderscoreTool(name), old(name), JSON.stringify(name));
    }
  });

  it('match a hostile pattern the loader accepts within a generous bound', () => {
    const hostile = parsed(`${'*a'.repeat(40)}*b/*`);
    const claude = parsed(`mcp__${'*a'.repeat(40)}*b__*`);
    const started = performance.now();
    for (const pattern of [hostile, claude]) assert.equal(mcpToolMatches(pattern, { server: 'a'.repeat(5000), tool: 'x' }), false);
    assert.equal(doubleUnderscoreTool(`mcp__${'a'.repeat(100_000)}\n`), undefined);
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 1_000, `took ${elapsed.toFixed(0)} ms`);
  });
});
