/**
 * The classic two-pointer wildcard match, linear in practice and never exponential: on a mismatch the last star
 * takes one more unit, and nothing else is retried. `isStar` says which pattern tokens are `*`; `matches` compares
 * one other token with one unit (a character, a name's code unit).
 */
export function wildcardMatch<P, U>(pattern: ArrayLike<P>, units: ArrayLike<U>, isStar: (token: P) => boolean, matches: (token: P, unit: U) => boolean): boolean {
  let p = 0;
  let s = 0;
  let star = -1;
  let mark = 0;
  while (s < units.length) {
    if (p < pattern.length && !isStar(pattern[p]) && matches(pattern[p], units[s])) {
      p++;
      s++;
    } else if (p < pattern.length && isStar(pattern[p])) {
      star = p++;
      mark = s;
    } else if (star >= 0) {
      p = star + 1;
      s = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.length && isStar(pattern[p])) p++;
  return p === pattern.length;
}
