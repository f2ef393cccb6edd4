/**
 * Codex's `apply_patch` input (https://github.com/openai/codex, the `apply_patch` tool's grammar, sent in full to
 * the model in every request): a patch names each file it touches, so every one can be judged before it runs.
 *
 *   *** Begin Patch
 *   *** Add File: <path>          followed by "+line" lines: the whole new file
 *   *** Delete File: <path>
 *   *** Update File: <path>       optionally "*** Move to: <path>", then chunks: an optional "@@ <context>" line,
 *                                 then " context", "-removed", "+added" lines, optionally "*** End of File"
 *   *** End Patch
 *
 * Read as Codex reads it: surrounding whitespace and a shell heredoc wrapper (`<<'EOF'` … `EOF`) are tolerated, an
 * empty line inside a chunk is an empty context line, and the first chunk of a file may omit its "@@" line.
 */
export interface PatchChunk {
  /** The "@@ <text>" line Codex seeks to before matching `oldLines` (absent for a bare "@@"). */
  context?: string;
  oldLines: string[];
  newLines: string[];
  /** "*** End of File": the old lines end the file. */
  endOfFile: boolean;
}

export type PatchOperation =
  | { kind: 'add'; path: string; content: string }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; moveTo?: string; chunks: PatchChunk[] };

export type ParsedPatch = { ok: true; operations: PatchOperation[] } | { ok: false; message: string };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const EOF_MARKER = '*** End of File';

/** The patch's lines without a heredoc wrapper (`<<EOF`, `<<'EOF'`, `<<"EOF"` … `EOF`) around them. */
function patchLines(text: string): string[] {
  const lines = text.trim().split(/\r?\n/u);
  const first = lines[0]?.trim() ?? '';
  const last = lines.at(-1)?.trim() ?? '';
  if (lines.length >= 4 && /^<<\s*['"]?EOF['"]?$/u.test(first) && last === 'EOF') return lines.slice(1, -1);
  return lines;
}

/** Parses an apply_patch input into the file operations it would perform; an error value when it is not one. */
export function parseCodexPatch(text: string): ParsedPatch {
  const lines = patchLines(text);
  if (lines[0]?.trim() !== BEGIN) return { ok: false, message: `the patch does not start with '${BEGIN}'` };
  if (lines.at(-1)?.trim() !== END) return { ok: false, message: `the patch does not end with '${END}'` };
  const body = lines.slice(1, -1);
  const operations: PatchOperation[] = [];
  let at = 0;
  while (at < body.length) {
    const line = body[at].trim();
    if (line === '') {
      at++;
      continue;
    }
    if (line.startsWith(ADD)) {
      const added: string[] = [];
      at++;
      while (at < body.length && body[at].startsWith('+')) added.push(body[at++].slice(1));
      operations.push({ kind: 'add', path: line.slice(ADD.length).trim(), content: added.map((l) => `${l}\n`).join('') });
      continue;
    }
    if (line.startsWith(DELETE)) {
      operations.push({ kind: 'delete', path: line.slice(DELETE.length).trim() });
      at++;
      continue;
    }
    if (line.startsWith(UPDATE)) {
      const path = line.slice(UPDATE.length).trim();
      at++;
      let moveTo: string | undefined;
      if (at < body.length && body[at].trim().startsWith(MOVE)) moveTo = body[at++].trim().slice(MOVE.length).trim();
      const chunks: PatchChunk[] = [];
      while (at < body.length && !isHunkHeader(body[at])) {
        if (body[at].trim() === '') {
          at++;
          continue;
        }
        const chunk = parseChunk(body, at, chunks.length === 0);
        if (!chunk.ok) return { ok: false, message: `${chunk.message} (in the update of ${path})` };
        chunks.push(chunk.chunk);
        at = chunk.next;
      }
      if (chunks.length === 0) return { ok: false, message: `the update of ${path} has no changes` };
      operations.push({ kind: 'update', path, ...(moveTo !== undefined ? { moveTo } : {}), chunks });
      continue;
    }
    return { ok: false, message: `'${line}' is not a valid hunk header (expected '${ADD}', '${DELETE}' or '${UPDATE}')` };
  }
  return { ok: true, operations };
}

function isHunkHeader(line: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith(ADD) || trimmed.startsWith(DELETE) || trimmed.startsWith(UPDATE);
}

function parseChunk(lines: string[], start: number, first: boolean): { ok: true; chunk: PatchChunk; next: number } | { ok: false; message: string } {
  let at = start;
  let context: string | undefined;
  const header = lines[at].trim();
  if (header === '@@') at++;
  else if (header.startsWith('@@ ')) {
    context = header.slice(3);
    at++;
  } else if (!first) return { ok: false, message: `expected an '@@' line, found '${lines[at]}'` };
  const oldLines: string[] = [];
  const newLines: string[] = [];
  let endOfFile = false;
  let parsed = 0;
  while (at < lines.length) {
    const line = lines[at];
    if (line.trim() === EOF_MARKER) {
      endOfFile = true;
      at++;
      break;
    }
    if (isHunkHeader(line) || (parsed > 0 && line.trim().startsWith('@@'))) break;
    const mark = line[0];
    if (line === '') {
      oldLines.push('');
      newLines.push('');
    } else if (mark === ' ') {
      oldLines.push(line.slice(1));
      newLines.push(line.slice(1));
    } else if (mark === '-') oldLines.push(line.slice(1));
    else if (mark === '+') newLines.push(line.slice(1));
    else if (parsed === 0) return { ok: false, message: `'${line}' is not a change line (' ', '-' or '+')` };
    else break;
    parsed++;
    at++;
  }
  if (parsed === 0) return { ok: false, message: 'a chunk has no lines' };
  return { ok: true, chunk: { ...(context !== undefined ? { context } : {}), oldLines, newLines, endOfFile }, next: at };
}
