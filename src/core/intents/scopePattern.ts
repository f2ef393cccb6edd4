/** Longest glob accepted in owned_scope; longer ones are almost always pasted by mistake. */
export const MAX_SCOPE_PATTERN_LENGTH = 256;

/** `./src/**` and `src/**` mean the same; the matcher only understands the second. */
export function normalizeScopePattern(pattern: string): string {
  let p = pattern;
  while (p.startsWith('./')) p = p.slice(2);
  return p;
}

// Every check is a reason the matcher would silently match the wrong files (or none), so we refuse at load.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const EXTGLOB = /[@!+?*]\(/;

/** Why `pattern` cannot be an owned_scope glob (saying what to write instead), or undefined when it is fine. */
export function validateScopePattern(pattern: string): string | undefined {
  if (pattern.length > MAX_SCOPE_PATTERN_LENGTH) {
    return `the pattern is longer than ${MAX_SCOPE_PATTERN_LENGTH} characters; use a shorter glob such as 'src/feature/**'`;
  }
  const p = normalizeScopePattern(pattern);
  if (p.length === 0) return "the pattern is empty; write a workspace-relative glob such as 'src/**'";
  if (CONTROL.test(p)) return 'the pattern contains a control character (newline, tab, NUL…); remove it';
  if (p.startsWith('/') || p.startsWith('\\\\') || /^[A-Za-z]:/.test(p)) {
    return "absolute paths are not allowed; write the path relative to the workspace root, e.g. 'src/**'";
  }
  if (p.includes('\\')) {
    return "backslashes are not allowed; use '/' as the separator, and a class such as '[*]' to match a special character literally";
  }
  if (p.startsWith('#')) return "a pattern starting with '#' is a comment that matches nothing; to own a file named '#x', write '[#]x'";
  if (p.startsWith('~')) return "'~' is not expanded to a home directory; write the path relative to the workspace root, e.g. 'src/**'";
  if (p.startsWith('!')) return "negation ('!') is not supported; list only what the intent owns, everything else is already refused";
  if (p.includes('{') || p.includes('}')) {
    return "braces are not supported; list each pattern separately, e.g. 'src/a/**' and 'src/b/**' instead of 'src/{a,b}/**'";
  }
  if (EXTGLOB.test(p)) {
    return "extglobs such as '@(a|b)' are not supported; list each alternative as its own pattern (use '[(]' for a literal parenthesis)";
  }
  const segments = p.split('/');
  if (segments.includes('..')) return "'..' segments are not allowed; scopes stay inside the workspace, so write the path from the workspace root";
  if (segments.includes('.')) return "'.' segments are not allowed; remove them, e.g. 'src/x' instead of 'src/./x'";
  if (p.endsWith('/')) return "a trailing '/' matches no file; write 'dir/**' to own everything under a directory";
  if (segments.includes('')) return "empty segments ('//') are not allowed; use a single '/'";
  return undefined;
}
