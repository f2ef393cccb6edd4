import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { buildSync } from 'esbuild';

const built = new Map<string, string>();
let outDir: string | undefined;

/**
 * Bundles a TypeScript script to plain CommonJS once per test run, so child processes start in tens of
 * milliseconds (no tsx compile per spawn). Returns the .js path to run with `node`. Bundles share one
 * directory, so one can load another by the name esbuild.mjs gives it (`outName`).
 */
export function bundledScript(entry: string, outName = defaultName(entry)): string {
  // By entry and name: a bundle another finds by its name (hook.js starts cli.js) must exist under that name.
  const key = `${entry}\0${outName}`;
  const cached = built.get(key);
  if (cached) return cached;
  if (!outDir) {
    const dir = mkdtempSync(join(tmpdir(), 'ig-bundle-'));
    outDir = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  const outfile = join(outDir, outName);
  // As in esbuild.mjs, jsonc-parser's ES build (its UMD main requires its parts at run time), and the 9 MB typescript package stays out of the bundle (it would double every spawn's
  // start), required from node_modules by absolute path only when a change is classified.
  const typescript = require.resolve('typescript');
  buildSync({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'error', alias: { typescript, 'jsonc-parser': require.resolve('jsonc-parser').replace(/umd([\\/]main\.js)$/u, 'esm$1') }, external: [typescript] });
  built.set(key, outfile);
  return outfile;
}

/** The name esbuild.mjs gives the bundle: the CLI is dist/cli.js (Claude Code's server entry names it beside hook.js). */
function defaultName(entry: string): string {
  const name = basename(entry, '.ts');
  return name === 'main' && basename(dirname(entry)) === 'cli' ? 'cli.js' : `${name}.js`;
}
