/**
 * Claude Code's hook matcher: `*`, '' or absent = every tool; only letters, digits, `_ - , |` and spaces = a list
 * of exact names (`Edit|Write`, `Edit, Write`, `mcp__github__create_issue`); anything else = a JavaScript regular
 * expression tested unanchored, as Claude Code does (`^Bash$` to pin it down). Same text, same tools, whichever
 * agent's call it is.
 */

const NAME_LIST = /^[A-Za-z0-9_\-,| ]+$/;

type Compiled = { kind: 'all' } | { kind: 'names'; names: ReadonlySet<string> } | { kind: 'regex'; regex: RegExp } | { kind: 'invalid'; message: string };

// A policy file has a handful of matchers and every governed call tests them: compile each text once.
const compiled = new Map<string, Compiled>();
const MAX_CACHED = 1000;

function compile(matcher: string): Compiled {
  const cached = compiled.get(matcher);
  if (cached) return cached;
  const result = compileUncached(matcher);
  if (compiled.size >= MAX_CACHED) compiled.clear();
  compiled.set(matcher, result);
  return result;
}

function compileUncached(matcher: string): Compiled {
  if (matcher === '' || matcher === '*') return { kind: 'all' };
  if (NAME_LIST.test(matcher)) {
    const names = matcher.split(/[|,]/).map((name) => name.trim()).filter((name) => name !== '');
    return { kind: 'names', names: new Set(names) };
  }
  try {
    return { kind: 'regex', regex: new RegExp(matcher) };
  } catch (error) {
    return { kind: 'invalid', message: error instanceof Error ? error.message : String(error) };
  }
}

/** True when any of the names (the native tool name and the governed one) is one the matcher selects. */
export function matcherMatches(matcher: string | undefined, names: readonly string[]): boolean {
  const m = compile(matcher ?? '');
  switch (m.kind) {
    case 'all':
      return true;
    case 'names':
      return names.some((name) => m.names.has(name));
    case 'regex':
      return names.some((name) => m.regex.test(name));
    case 'invalid':
      return false; // the loader refuses such a file; never a reason to run or skip silently
  }
}

/** The exact tool names a matcher lists (`Edit|Write`); undefined when it selects every tool or is a regular expression. */
export function matcherNames(matcher: string | undefined): readonly string[] | undefined {
  const m = compile(matcher ?? '');
  return m.kind === 'names' ? [...m.names] : undefined;
}

/** Why the loader must refuse this matcher, or undefined when it is fine. */
export function matcherProblem(matcher: string): string | undefined {
  const m = compile(matcher);
  if (m.kind !== 'invalid') return undefined;
  return `matcher '${matcher}' is not a valid regular expression (${m.message}); write tool names separated by | (Edit|Write) or a JavaScript regular expression (mcp__github__.*)`;
}
