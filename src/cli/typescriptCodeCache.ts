import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type * as TypeScript from 'typescript';
import { useTypescriptLoader } from '../core/changeClass/typescriptApi';
import { requireWithCodeCache, type CachedModule } from './codeCache';
import { storeIn } from '../core/paths/userStores';

export interface ParserCache {
  /** `no` until a change needed the parser; then whether V8 took the cache of an earlier process. */
  readonly loaded: 'no' | 'compiled' | 'cached';
  /** Call after the work: writes the cache when there was none, covering the parser functions that ran. */
  save(): void;
}

/**
 * A hook process classifies a change or two and exits, and compiling the 9 MB parser is most of that (~450 ms,
 * ~100 ms from a code cache). So, when a change needs it, the parser is loaded as the headless governor is:
 * through a V8 code cache, in a folder of its own (each folder keeps one bundle's cache).
 */
export function typescriptThroughCodeCache(home: string, vendorDir = join(__dirname, 'vendor')): ParserCache {
  const file = join(vendorDir, 'typescript.js');
  let module: CachedModule<typeof TypeScript> | undefined;
  // Run from source or a test bundle there is no vendor copy: the plain `require` then finds the package.
  if (existsSync(file)) useTypescriptLoader(() => (module = requireWithCodeCache<typeof TypeScript>(file, join(storeIn(home, 'code-cache'), 'typescript'))).exports);
  return {
    get loaded() {
      return module === undefined ? 'no' : module.cacheHit ? 'cached' : 'compiled';
    },
    save() {
      module?.saveCache();
    },
  };
}
