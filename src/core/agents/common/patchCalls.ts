import type { NativeCall, NativeEdit, ToolMapping } from './nativeCall';
import { parseCodexPatch, type PatchChunk } from './applyPatch';
import { missingInput } from './hookDialect';

/** How one agent's patch tool differs from another's: its name, where paths resolve, what the model should use instead. */
export interface PatchTool {
  /** "Codex", "Copilot CLI", "OpenCode": named in refusals. */
  agent: string;
  /** The tool's name as the agent sends it ("apply_patch", "patch"). */
  tool: string;
  /** The field names that may carry the patch text, in order. */
  textFields: string[];
  /** A path of the patch as the agent resolves it (absolute). */
  resolve(path: string): string;
  /** How the model names its shell in advice ("a shell command", "the bash tool"). */
  shell: string;
  /** Codex retries a chunk without a trailing empty context line when the text is not found; matching without it is the same leniency. */
  lenientTrailingContext?: boolean;
}

/**
 * One search/replace per chunk: the lines it removes and keeps, in the file's order. A chunk that only adds lines
 * names no text to find (the agent appends it at the end of the file), so it cannot be checked as an edit.
 */
function chunkEdit(chunk: PatchChunk, lenient: boolean): NativeEdit | undefined {
  const oldLines = [...chunk.oldLines];
  const newLines = [...chunk.newLines];
  while (lenient && oldLines.length > 1 && oldLines.at(-1) === '' && newLines.at(-1) === '') {
    oldLines.pop();
    newLines.pop();
  }
  if (oldLines.every((line) => line === '')) return undefined;
  return { search: oldLines.join('\n'), replace: newLines.join('\n'), all: false };
}

/**
 * A patch in the `*** Begin Patch` format (Codex's apply_patch, which Copilot CLI and OpenCode offer GPT models
 * too) → a write per added file and an edit per updated one, every path judged; deletions and moves are refused
 * whole, with what to do instead.
 */
export function patchCalls(input: Record<string, unknown>, spec: PatchTool): ToolMapping {
  const field = spec.textFields.find((name) => typeof input[name] === 'string');
  const text = field === undefined ? undefined : (input[field] as string);
  if (text === undefined) return missingInput(spec.agent, spec.tool, 'patch text');
  const parsed = parseCodexPatch(text);
  if (!parsed.ok) return { kind: 'refused', reason: `Intent Governor cannot read this ${spec.tool} input (${parsed.message}), so it is refused. Send a patch in the '*** Begin Patch' … '*** End Patch' format.` };
  if (parsed.operations.length === 0) return missingInput(spec.agent, spec.tool, 'file operation');
  const calls: NativeCall[] = [];
  const edits = new Map<string, NativeEdit[]>();
  for (const op of parsed.operations) {
    const path = spec.resolve(op.path);
    if (op.kind === 'delete') {
      return { kind: 'refused', reason: `This patch deletes ${op.path}, which Intent Governor cannot check as part of a patch, so the whole patch is refused. Leave the deletion out of the patch and delete the file with ${spec.shell} (rm ${op.path}), which Intent Governor judges.` };
    }
    if (op.kind === 'add') {
      calls.push({ tool: 'write_file', input: { path, content: op.content } });
      continue;
    }
    if (op.moveTo !== undefined) {
      return { kind: 'refused', reason: `This patch moves ${op.path} to ${op.moveTo}, which Intent Governor cannot check as part of a patch, so the whole patch is refused. Rename the file with ${spec.shell} (git mv or mv), which Intent Governor judges, then patch it at its new path.` };
    }
    const list = edits.get(path) ?? [];
    for (const chunk of op.chunks) {
      const edit = chunkEdit(chunk, spec.lenientTrailingContext === true);
      if (!edit) {
        return { kind: 'refused', reason: `A chunk of this patch adds lines to ${op.path} without any line it removes or keeps, so Intent Governor cannot tell where it lands and refuses the patch. Include at least one unchanged context line (' ' prefix) next to the added lines.` };
      }
      list.push(edit);
    }
    if (!edits.has(path)) calls.push({ tool: 'edit_file', input: { path }, edits: list });
    edits.set(path, list);
  }
  return { kind: 'governed', calls };
}
