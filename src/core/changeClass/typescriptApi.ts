import type * as TypeScript from 'typescript';

let load = (): typeof TypeScript => require('typescript') as typeof TypeScript;
let cached: typeof TypeScript | undefined;

/**
 * The TypeScript compiler's API, loaded on first use: its 9 MB bundle (dist/vendor/typescript.js) takes
 * ~450 ms to compile, a cost only a change to a TypeScript or JavaScript file pays, once per process.
 */
export function typescriptApi(): typeof TypeScript {
  cached ??= load();
  return cached;
}

/** How a process loads it instead of `require` (the hook process: through a V8 code cache). Set before first use. */
export function useTypescriptLoader(loader: () => typeof TypeScript): void {
  load = loader;
}
