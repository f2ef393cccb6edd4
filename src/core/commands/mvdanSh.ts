import type { syntax as SyntaxApi } from 'mvdan-sh';

let cached: typeof SyntaxApi | undefined;

/** The mvdan-sh parser API, loaded on first use: evaluating its GopherJS bundle costs ~150 ms. */
export function shSyntax(): typeof SyntaxApi {
  cached ??= (require('mvdan-sh') as typeof import('mvdan-sh')).syntax;
  return cached;
}
