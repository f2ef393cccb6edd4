import { readFileSync, readdirSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { repoRoot } from './provisioned';

const suiteDir = join(repoRoot, 'test', 'vscode', 'suite');

/** Every test/vscode/suite/**\/*.test.ts, sorted so runs are in a stable order. */
export function findSpecFiles(): string[] {
  return readdirSync(suiteDir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => join(suiteDir, name));
}

/** The virtual module suite/index.ts imports: a lazy loader per spec file found at bundle time. */
const specFilesPlugin: Plugin = {
  name: 'vscode-spec-files',
  setup(onBuild) {
    onBuild.onResolve({ filter: /^intent-governor:vscode-spec-files$/ }, (args) => ({
      path: args.path,
      namespace: 'vscode-spec-files',
    }));
    onBuild.onLoad({ filter: /.*/, namespace: 'vscode-spec-files' }, () => {
      const entries = findSpecFiles().map((file) => {
        const name = relative(suiteDir, file).split(sep).join('/');
        return `  { name: ${JSON.stringify(name)}, load: () => require(${JSON.stringify(file)}) },`;
      });
      return { contents: `export const specFiles = [\n${entries.join('\n')}\n];\n`, resolveDir: suiteDir, loader: 'js' };
    });
  },
};

/**
 * mocha 12 is an ES module whose index re-exports lib/mocha.cjs. The bundle requires that CommonJS
 * file by absolute path: one mocha instance for the suite and the specs, and no require(esm) inside
 * the extension host's module loader.
 */
const mochaPlugin: Plugin = {
  name: 'mocha-cjs-external',
  setup(onBuild) {
    onBuild.onResolve({ filter: /^mocha$/ }, () => ({
      path: join(repoRoot, 'node_modules', 'mocha', 'lib', 'mocha.cjs'),
      external: true,
    }));
  },
};

/**
 * Gives every bundled source of ours that uses __dirname or __filename its own values, as if it ran
 * from its file (test/support reads ../../schemas that way). Left alone, both would name the bundle's
 * temp dir. esbuild renames the per-module constants apart, so each module sees its own.
 */
const sourceDirnamePlugin: Plugin = {
  name: 'source-dirname',
  setup(onBuild) {
    onBuild.onLoad({ filter: /\.(ts|js|cjs|mjs)$/ }, (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`) || !args.path.startsWith(repoRoot)) return undefined;
      const source = readFileSync(args.path, 'utf8');
      if (!/\b__(dirname|filename)\b/.test(source)) return undefined;
      const prologue =
        `const __dirname = ${JSON.stringify(dirname(args.path))};` +
        ` const __filename = ${JSON.stringify(args.path)};`;
      const loader = extname(args.path) === '.ts' ? 'ts' : 'js';
      // Same line: the prologue must not shift line numbers in the source map.
      return { contents: `${prologue} ${source}`, loader };
    });
  },
};

/**
 * Bundles the suite (index.ts plus every spec and what they import from src/) into one CJS file,
 * `<outDir>/vscode-suite/index.js` with its source map. Each run passes its own temp dir, so runs
 * side by side never load each other's half-written bundle. Returns the bundle's path.
 */
export async function bundleSuite(outDir: string): Promise<string> {
  const outfile = join(outDir, 'vscode-suite', 'index.js');
  await build({
    entryPoints: [join(suiteDir, 'index.ts')],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode'],
    plugins: [specFilesPlugin, mochaPlugin, sourceDirnamePlugin],
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
  });
  return outfile;
}
