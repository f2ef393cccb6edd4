import type { Confinement } from './confinement';

/**
 * The macOS sandbox profile for a confined command: writes denied except in the writable places and the
 * devices a shell needs, the protected paths inside them denied again (a later rule wins in SBPL). Seatbelt
 * checks the real path, so links the command makes lead nowhere new. Paths must be realpath'd (/private/tmp).
 */
export function seatbeltProfile(confinement: Confinement): string {
  const quote = (path: string) => `"${path.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  const writable = [...confinement.writable, confinement.tempDir].map((p) => `(subpath ${quote(p)})`).join(' ');
  const lines = [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    `(allow file-write* ${writable} (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/"))`,
  ];
  if (confinement.readOnlyInside.length > 0) lines.push(`(deny file-write* ${confinement.readOnlyInside.map((p) => `(subpath ${quote(p)})`).join(' ')})`);
  if (confinement.denyNetwork) lines.push('(deny network-outbound (remote ip))', '(deny network-inbound (local ip))');
  return lines.join('\n');
}
