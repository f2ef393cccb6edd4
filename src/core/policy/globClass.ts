/**
 * A glob's character class (`[a-z]`, `[!.]`, `[[:alpha:]]`) read exactly as minimatch 10 reads it (its
 * brace-expressions.ts, MIT, Isaac Z. Schlueter), which does not export it: the scope matcher tests one character at a
 * time against the class's regular expression, so a class means what it meant when minimatch matched whole segments.
 */

export interface GlobClass {
  /** Regular-expression source matching one character ('$.' matches none). */
  source: string;
  /** The source needs the `u` flag (a POSIX class became a Unicode property). */
  unicode: boolean;
  /** Characters of the glob the class spans, from its '['; 0 when the '[' is a literal character. */
  consumed: number;
}

// [translation, needs /u, negated]
const POSIX_CLASSES: ReadonlyArray<[string, string, boolean, boolean?]> = [
  ['[:alnum:]', '\\p{L}\\p{Nl}\\p{Nd}', true],
  ['[:alpha:]', '\\p{L}\\p{Nl}', true],
  ['[:ascii:]', '\\x' + '00-\\x' + '7f', false],
  ['[:blank:]', '\\p{Zs}\\t', true],
  ['[:cntrl:]', '\\p{Cc}', true],
  ['[:digit:]', '\\p{Nd}', true],
  ['[:graph:]', '\\p{Z}\\p{C}', true, true],
  ['[:lower:]', '\\p{Ll}', true],
  ['[:print:]', '\\p{C}', true],
  ['[:punct:]', '\\p{P}', true],
  ['[:space:]', '\\p{Z}\\t\\r\\n\\v\\f', true],
  ['[:upper:]', '\\p{Lu}', true],
  ['[:word:]', '\\p{L}\\p{Nl}\\p{Nd}\\p{Pc}', true],
  ['[:xdigit:]', 'A-Fa-f0-9', false],
];

const braceEscape = (s: string) => s.replace(/[[\]\\-]/g, '\\$&');
const regexpEscape = (s: string) => s.replace(/[-[\]{}()*+?.,\\^$|#\s]/g, '\\$&');

/** The class starting at `glob[pos]` (which is '['), as minimatch's parseClass reads it. */
export function parseGlobClass(glob: string, pos: number): GlobClass {
  const ranges: string[] = [];
  const negs: string[] = [];
  let i = pos + 1;
  let sawStart = false;
  let unicode = false;
  let escaping = false;
  let negate = false;
  let endPos = pos;
  let rangeStart = '';
  scan: while (i < glob.length) {
    const c = glob.charAt(i);
    if ((c === '!' || c === '^') && i === pos + 1) {
      negate = true;
      i++;
      continue;
    }
    if (c === ']' && sawStart && !escaping) {
      endPos = i + 1;
      break;
    }
    sawStart = true;
    if (c === '\\' && !escaping) {
      escaping = true;
      i++;
      continue;
    }
    if (c === '[' && !escaping) {
      for (const [name, translation, u, negated] of POSIX_CLASSES) {
        if (!glob.startsWith(name, i)) continue;
        if (rangeStart) return { source: '$.', unicode: false, consumed: glob.length - pos };
        i += name.length;
        (negated ? negs : ranges).push(translation);
        unicode = unicode || u;
        continue scan;
      }
    }
    escaping = false;
    if (rangeStart) {
      if (c > rangeStart) ranges.push(`${braceEscape(rangeStart)}-${braceEscape(c)}`);
      else if (c === rangeStart) ranges.push(braceEscape(c));
      rangeStart = '';
      i++;
      continue;
    }
    if (glob.startsWith('-]', i + 1)) {
      ranges.push(braceEscape(c + '-'));
      i += 2;
      continue;
    }
    if (glob.startsWith('-', i + 1)) {
      rangeStart = c;
      i += 2;
      continue;
    }
    ranges.push(braceEscape(c));
    i++;
  }
  if (endPos < i) return { source: '', unicode: false, consumed: 0 };
  if (!ranges.length && !negs.length) return { source: '$.', unicode: false, consumed: glob.length - pos };
  if (negs.length === 0 && ranges.length === 1 && /^\\?.$/.test(ranges[0]) && !negate) {
    const r = ranges[0].length === 2 ? ranges[0].slice(-1) : ranges[0];
    return { source: regexpEscape(r), unicode: false, consumed: endPos - pos };
  }
  const positive = `[${negate ? '^' : ''}${ranges.join('')}]`;
  const negative = `[${negate ? '' : '^'}${negs.join('')}]`;
  const source = ranges.length && negs.length ? `(${positive}|${negative})` : ranges.length ? positive : negative;
  return { source, unicode, consumed: endPos - pos };
}
