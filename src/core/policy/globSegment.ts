import { parseGlobClass } from './globClass';
import { wildcardMatch } from '../wildcardMatch';

/**
 * One path segment of a glob (`*.ts`, `a*b?[0-9]`) matched without backtracking: minimatch compiles a segment to a
 * regular expression whose lazy stars (`[^/]*?a[^/]*?a…`) backtrack exponentially on a hostile glob, stalling the
 * event loop of every agent's governor. Here the segment is a list of tokens that each take one character, or a star,
 * matched by the two-pointer wildcard algorithm (time at most segment × pattern), with the same meaning.
 */

/** What minimatch hands back for a segment with magic: its regex, the segment's glob and the regex source. */
export type MinimatchSegment = RegExp & { _glob: string; _src: string };

type Token = 'star' | ((unit: string) => boolean);

const ANY = (): boolean => true; // '?' is [^/], and a file segment holds no '/'
const NO_DOT_START = '(?!\\.)';

/** A test of one file segment that means what `segment.test(f)` means, in time linear in f times the glob. */
export function segmentMatcher(segment: MinimatchSegment): (f: string) => boolean {
  // minimatch's own fast tests (`*`, `*.ext`, `??`, `*.*`, `.*`) replace the regex and are linear already.
  if (Object.hasOwn(segment, 'test')) return (f) => segment.test(f);
  const unicode = segment.flags.includes('u');
  const flags = segment.flags.replace(/[^iu]/g, '');
  const tokens = tokenize(segment._glob, flags);
  // The regex begins with minimatch's dot guard exactly when a '*', '?' or class starts the segment (dot: false).
  const noDot = segment._src.startsWith(NO_DOT_START);
  const onlyStars = /^[*]+$/.test(segment._glob);
  return (f) => {
    if (noDot && f.startsWith('.')) return false;
    const units: ArrayLike<string> = unicode ? Array.from(f) : f;
    if (onlyStars && units.length === 0) return false;
    return wildcard(tokens, units);
  };
}

/** minimatch's parseGlob (ast.ts), producing tokens instead of regex source. */
function tokenize(glob: string, flags: string): Token[] {
  const unicode = flags.includes('u');
  const tokens: Token[] = [];
  let pending = ''; // a high surrogate waiting for its pair: under /u the regex reads the two as one character
  const literal = (c: string) => {
    if (unicode && pending) {
      const low = c.charCodeAt(0);
      const pair = low >= 0xdc00 && low <= 0xdfff;
      tokens.push(literalTest(pair ? pending + c : pending, flags));
      pending = '';
      if (pair) return;
    }
    const code = c.charCodeAt(0);
    if (unicode && code >= 0xd800 && code <= 0xdbff) pending = c;
    else tokens.push(literalTest(c, flags));
  };
  const flush = () => {
    if (pending) tokens.push(literalTest(pending, flags));
    pending = '';
  };
  let escaping = false;
  let inStar = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob.charAt(i);
    if (escaping) {
      escaping = false;
      literal(c);
      continue;
    }
    if (c === '*') {
      if (!inStar) {
        flush();
        tokens.push('star');
      }
      inStar = true;
      continue;
    }
    inStar = false;
    if (c === '\\') {
      if (i === glob.length - 1) literal('\\');
      else escaping = true;
      continue;
    }
    if (c === '[') {
      const cls = parseGlobClass(glob, i);
      if (cls.consumed) {
        flush();
        const re = new RegExp(`^(?:${cls.source})$`, flags);
        tokens.push((unit) => re.test(unit));
        i += cls.consumed - 1;
        continue;
      }
    }
    if (c === '?') {
      flush();
      tokens.push(ANY);
      continue;
    }
    literal(c);
  }
  flush();
  return tokens;
}

/** One literal character, compared as the segment's regex compares it (case folding under the `i` flag). */
function literalTest(c: string, flags: string): (unit: string) => boolean {
  if (!flags.includes('i')) return (unit) => unit === c;
  const code = c.codePointAt(0) as number;
  // Without /u no character folds onto an ASCII letter but its other case, so two compares suffice.
  if (!flags.includes('u') && code < 128) {
    const lower = c.toLowerCase();
    const upper = c.toUpperCase();
    return (unit) => unit === lower || unit === upper;
  }
  const escaped = flags.includes('u') ? `\\u{${code.toString(16)}}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  const re = new RegExp(`^${escaped}$`, flags);
  return (unit) => re.test(unit);
}

/** The classic wildcard match: on a mismatch, the last star takes one more character; nothing else is retried. */
function wildcard(tokens: readonly Token[], units: ArrayLike<string>): boolean {
  return wildcardMatch(tokens, units, (token) => token === 'star', (token, unit) => token !== 'star' && token(unit));
}
