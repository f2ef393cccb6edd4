import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, isAbsolute, relative, resolve } from 'node:path';

/** Frames in the suite bundle (bundleSuite.ts writes `<dir>/vscode-suite/index.js`); mocha may print them relative to the cwd. */
const BUNDLE_FRAME = /([^\s(]*vscode-suite[\\/]index\.js):(\d+):(\d+)/g;

/**
 * Rewrites stack frames that point into the suite bundle so they point at the .ts specs instead.
 * Needed because the extension host installs its own Error.prepareStackTrace, which bypasses
 * Node's --enable-source-maps; the bundle's .map file sits next to it.
 */
export function sourceMappedStack(stack: string): string {
  return stack.replace(BUNDLE_FRAME, (whole, file: string, line: string, column: string) => {
    const bundle = resolve(file);
    const map = sourceMapOf(bundle);
    if (!map) return whole;
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1) as Partial<{
      originalSource: string;
      originalLine: number;
      originalColumn: number;
    }>;
    if (entry.originalSource === undefined || entry.originalLine === undefined) return whole;
    return `${displayPath(bundle, entry.originalSource)}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}`;
  });
}

const maps = new Map<string, SourceMap | undefined>();

function sourceMapOf(bundle: string): SourceMap | undefined {
  if (!maps.has(bundle)) {
    try {
      maps.set(bundle, new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, 'utf8'))));
    } catch {
      maps.set(bundle, undefined);
    }
  }
  return maps.get(bundle);
}

function displayPath(bundle: string, source: string): string {
  const path = source.startsWith('file://') ? new URL(source).pathname : source;
  const absolute = isAbsolute(path) ? path : resolve(dirname(bundle), path);
  const fromCwd = relative(process.cwd(), absolute);
  return fromCwd.startsWith('..') ? absolute : fromCwd;
}
