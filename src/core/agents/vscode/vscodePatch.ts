/**
 * Which files a patch of VS Code's `apply_patch` tool touches, and how. The tool (Copilot Chat 0.67 in VS Code
 * 1.139) takes `{input: <patch text>, explanation}`; its parser (src/extension/tools/node/applyPatch/parser.ts
 * in microsoft/vscode-copilot-chat) reads:
 *
 *   *** Begin Patch              the first line; a missing "*** End Patch" is added by VS Code
 *   *** Add File: <path>         then "+line" lines: the whole new file, its lines joined with "\n"
 *   *** Delete File: <path>
 *   *** Update File: <path>      optionally "*** Move to: <path>" next, then hunks ("@@ …", " ", "-", "+" lines)
 *   *** End Patch
 *
 * Only the headers (and an added file's lines) are read here: VS Code applies an update's hunks loosely
 * (whitespace, quote and indentation fuzz, and a model "heals" a hunk that does not apply), so the text an
 * update leaves is known only once the tool ran.
 */
export type VscodePatchFile =
  | { kind: 'add'; path: string; content: string }
  | { kind: 'update'; path: string; moveTo?: string }
  | { kind: 'delete'; path: string };

export type ReadPatch = { ok: true; files: VscodePatchFile[] } | { ok: false; message: string };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';

/** A line that ends a file's section, as VS Code tests it (the prefix without its trailing space). */
function endsSection(line: string): boolean {
  return [END, ADD, DELETE, UPDATE].some((prefix) => line.startsWith(prefix.trim()));
}

/** The path after a header, without the carriage return a CRLF patch leaves on it. */
function headerPath(line: string, prefix: string): string {
  return line.slice(prefix.length).replace(/\r$/u, '');
}

/** Reads a patch as VS Code does, up to its file operations; an error value when VS Code would refuse it too. */
export function readVscodePatch(text: string): ReadPatch {
  const lines = text.trim().split('\n');
  if (!(lines[0] ?? '').startsWith(BEGIN)) return { ok: false, message: `the patch does not start with '${BEGIN}'` };
  const files: VscodePatchFile[] = [];
  const seen = new Set<string>();
  let at = 1;
  const section = (kind: VscodePatchFile['kind'], path: string): string | undefined => {
    if (path.trim() === '') return `a '${kind}' header names no file`;
    if (seen.has(path)) return `the patch names ${path} twice`;
    seen.add(path);
    return undefined;
  };
  while (at < lines.length && !lines[at].startsWith(END)) {
    const line = lines[at];
    if (line.startsWith(ADD)) {
      const path = headerPath(line, ADD);
      const problem = section('add', path);
      if (problem) return { ok: false, message: problem };
      const added: string[] = [];
      for (at++; at < lines.length && !endsSection(lines[at]); at++) {
        if (!lines[at].startsWith('+')) return { ok: false, message: `'${lines[at]}' in the new file ${path} does not start with '+'` };
        added.push(lines[at].slice(1));
      }
      files.push({ kind: 'add', path, content: added.join('\n') });
      continue;
    }
    if (line.startsWith(DELETE)) {
      const path = headerPath(line, DELETE);
      const problem = section('delete', path);
      if (problem) return { ok: false, message: problem };
      files.push({ kind: 'delete', path });
      at++;
      continue;
    }
    if (line.startsWith(UPDATE)) {
      const path = headerPath(line, UPDATE);
      const problem = section('update', path);
      if (problem) return { ok: false, message: problem };
      at++;
      const moveTo = lines[at]?.startsWith(MOVE) ? headerPath(lines[at++], MOVE) || undefined : undefined; // VS Code ignores an empty one
      for (; at < lines.length && !endsSection(lines[at]); at++) {
        // Any other "***" line inside hunks is one VS Code refuses, or a misplaced move: not a patch judged here.
        if (lines[at].startsWith('***') && !lines[at].startsWith(END_OF_FILE)) return { ok: false, message: `'${lines[at]}' is not a line of a hunk (in the update of ${path})` };
      }
      files.push({ kind: 'update', path, ...(moveTo !== undefined ? { moveTo } : {}) });
      continue;
    }
    return { ok: false, message: `'${line}' is not a file header (expected '${ADD.trim()}', '${DELETE.trim()}' or '${UPDATE.trim()}')` };
  }
  if (files.length === 0) return { ok: false, message: 'the patch changes no file' };
  return { ok: true, files };
}
