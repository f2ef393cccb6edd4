import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { constants as vmConstants, Script } from 'node:vm';
import { readRegularFileSync } from '../core/io/regularFile';

/** A code cache is a few times the size of the bundle's hot functions; anything near this is not ours. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** A bundle loaded by `requireWithCodeCache`. */
export interface CachedModule<T> {
  exports: T;
  /** Whether V8 accepted a cache from an earlier run. */
  cacheHit: boolean;
  /**
   * Writes the cache when there was none (or V8 rejected it). Call it after the module did its work:
   * the data then covers the functions that ran, not only the top level. Never throws: a cache that
   * cannot be written costs time, not correctness.
   */
  saveCache(): void;
}

/**
 * Loads a CommonJS bundle with a V8 code cache kept in `cacheDir`, because agents start one hook process
 * per tool call and compiling the headless governor is most of that process's own time. Node 20 has no
 * `module.enableCompileCache`, so this is the same idea by hand: `vm.Script` with `cachedData`.
 * The cache file is named by the hash of the source and the Node version, so edited code never runs
 * stale; V8 rejects data it cannot use, and then the bundle is compiled as usual.
 */
export function requireWithCodeCache<T>(file: string, cacheDir: string): CachedModule<T> {
  const bytes = readFileSync(file);
  const key = createHash('sha256').update(`${process.version}\0${process.arch}\0`).update(bytes).digest('hex').slice(0, 32);
  const source = bytes.toString('utf8');
  const cacheFile = join(cacheDir, `${key}.v8`);
  // Non-blocking and capped: this runs before the governor decides, so a FIFO or device planted under the
  // cache's (predictable) name must be skipped, not waited on; the bundle then compiles as usual.
  const cached = readRegularFileSync(cacheFile, { maxBytes: MAX_CACHE_BYTES, noFollow: true });
  const cachedData = cached.ok ? cached.bytes : undefined;
  // A shebang line is not JavaScript inside the module wrapper; a comment keeps the line numbers.
  const body = source.startsWith('#!') ? `//${source.slice(2)}` : source;
  // A bundle keeps `import('node:…')` of builtins as it is (the sandbox's detection does one): without a loader a
  // vm script rejects it with "A dynamic import callback was not specified", and the hook refuses every command.
  const script = new Script(Module.wrap(body), { filename: file, cachedData, importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  const cacheHit = cachedData !== undefined && script.cachedDataRejected === false;
  const module = { exports: {} as T, filename: file, id: file, loaded: false };
  const wrapper = script.runInThisContext() as (exports: T, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  return {
    exports: module.exports,
    cacheHit,
    saveCache() {
      if (cacheHit) return;
      try {
        mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
        const temp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
        renameSync(temp, cacheFile);
        // Caches of earlier builds would only pile up: one bundle, one current cache.
        for (const name of readdirSync(cacheDir)) if (name.endsWith('.v8') && join(cacheDir, name) !== cacheFile) rmSync(join(cacheDir, name), { force: true });
      } catch {
        // Read-only or full disk: the next run compiles again.
      }
    },
  };
}
