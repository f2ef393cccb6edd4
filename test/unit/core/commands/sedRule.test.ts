import { strict as assert } from 'node:assert';
import { scanSedScript, type SedEffects } from '../../../../src/core/commands/sedRule';

describe('sedRule', () => {
  describe('scanSedScript finds the commands that reach outside sed', () => {
    const cases: [string, Partial<SedEffects>][] = [
      ['1,20p', { writes: [], executes: false, readable: true }],
      ['s/foo/bar/g', { writes: [], executes: false, readable: true }],
      ['s/write/exec/g; /^#/d', { writes: [], executes: false, readable: true }],
      ['s|a/b|c|w out.txt', { writes: ['out.txt'], readable: true }],
      ['/x/w found.txt\n$p', { writes: ['found.txt'], readable: true }],
      ['1e id', { executes: true }],
      ['s/.*/date/e', { executes: true }],
      ['/start/,/end/{s/a/b/;p}', { writes: [], executes: false, readable: true }],
      ['$!N; P; D', { writes: [], executes: false, readable: true }],
      ['a\\\nappended text with w and e', { writes: [], executes: false, readable: true }],
      ['y/abc/xyz/', { writes: [], executes: false, readable: true }],
      [':top; s/x/y/; t top', { writes: [], executes: false, readable: true }],
      ['s/unterminated', { readable: false }],
      ['1K', { readable: false }],
    ];
    for (const [script, expected] of cases) {
      it(JSON.stringify(script), () => {
        const fx = scanSedScript(script);
        for (const [key, value] of Object.entries(expected)) assert.deepEqual(fx[key as keyof SedEffects], value, key);
      });
    }
  });
});
