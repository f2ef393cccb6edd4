import type * as TypeScript from 'typescript';

let cached: typeof TypeScript | undefined;

/**
 * The TypeScript compiler's API, loaded on first use: its 9 MB bundle (dist/vendor/typescript.js) takes
 * ~200 ms to compile, a cost only a change to a TypeScript or JavaScript file pays, once per process.
 */
export function typescriptApi(): typeof TypeScript {
  cached ??= require('typescript') as typeof TypeScript;
  return cached;
}
