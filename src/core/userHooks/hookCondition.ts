import { minimatch } from 'minimatch';
import { commandMatchesPattern, parseCommandPattern } from './hookCommandPattern';

/**
 * A hook's `if`, in Claude Code's permission-rule syntax: `Tool` or `Tool(spec)`. The tool part names a tool
 * (native or governed); `Edit` also covers every file-changing call, `Read` every read and `Bash` every command,
 * so a rule written for Claude Code holds for the other agents' tools too. A command spec (`git push:*`, `npm
 * run *`, `npm test`) is read by hookCommandPattern; a file spec is gitignore-style, relative to the workspace root.
 */
export interface ConditionSubject {
  /** The call's tool names: the native one (`Bash`, `Write`, `create_file`) and the governed one (`write_file`). */
  toolNames: readonly string[];
  /** The shell command line, for a command call. */
  command?: string;
  /** The file, workspace-relative with '/'. */
  path?: string;
  kind: 'read' | 'write' | 'command' | 'other';
}

const RULE = /^([A-Za-z0-9_-]+)(?:\((.*)\))?$/s;

/** Tools whose spec is a file pattern (Claude Code's and the governor's), so the loader can check it. */
const FILE_TOOLS = new Set(['Read', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Glob', 'Grep', 'read_file', 'write_file', 'edit_file', 'delete_file', 'list_files']);

/** The tool part that covers a whole kind of call, whatever the agent calls its tool. */
const KIND_TOOLS: Record<ConditionSubject['kind'], string | undefined> = { write: 'Edit', read: 'Read', command: 'Bash', other: undefined };

const EXAMPLE = `e.g. "Bash(git push:*)" or "Write(src/**)"`;

/** Why the loader must refuse this rule, or undefined when it is fine. */
export function conditionProblem(rule: string): string | undefined {
  if (rule.trim() === '') return `"if" is empty; write a permission rule such as "Bash(git push:*)" or "Edit(src/**)", or leave "if" out`;
  const parsed = RULE.exec(rule);
  if (!parsed) return `"if" '${rule}' is not a permission rule; write Tool or Tool(pattern), ${EXAMPLE}`;
  const [, tool, spec] = parsed;
  if (spec === undefined) return undefined;
  if (spec.trim() === '') return `"if" '${rule}' has an empty pattern; write "${tool}" for every call, or a pattern such as "${tool === 'Bash' ? 'Bash(git push:*)' : `${tool}(src/**)`}"`;
  if (FILE_TOOLS.has(tool)) return pathSpecProblem(rule, spec);
  return undefined;
}

function pathSpecProblem(rule: string, spec: string): string | undefined {
  if (spec.startsWith('~') || spec.startsWith('//')) {
    return `"if" '${rule}': paths in "if" are relative to the workspace root; write a workspace pattern such as "Edit(src/**)"`;
  }
  if (spec.startsWith('!')) return `"if" '${rule}': a negated pattern cannot be a condition; name the files the hook is for, e.g. "Write(src/**)"`;
  return undefined;
}

/** Whether the call is one the rule names. A rule with a problem, or one this call cannot be checked against, does not match. */
export function conditionMatches(rule: string, subject: ConditionSubject): boolean {
  if (conditionProblem(rule) !== undefined) return false;
  const [, tool, spec] = RULE.exec(rule) as RegExpExecArray;
  if (!subject.toolNames.includes(tool) && KIND_TOOLS[subject.kind] !== tool) return false;
  if (spec === undefined || spec === '*') return true;
  if (subject.kind === 'command') return subject.command !== undefined && commandMatchesPattern(subject.command, parseCommandPattern(spec));
  if (subject.kind === 'read' || subject.kind === 'write') return subject.path !== undefined && pathMatches(spec, subject.path);
  return false;
}

/**
 * gitignore-style: a pattern without a slash (but a trailing one) matches a name at any depth; one with a slash
 * is anchored at the workspace root (`/src/*.ts`, `./src/*.ts` and `src/*.ts` alike). A pattern that matches a
 * folder matches everything under it.
 */
function pathMatches(spec: string, path: string): boolean {
  if (path.startsWith('/') || path === '..' || path.startsWith('../')) return false; // outside the workspace
  let pattern = spec.startsWith('./') ? spec.slice(2) : spec.startsWith('/') ? spec.slice(1) : spec;
  const anchored = pattern !== spec || pattern.replace(/\/+$/, '').includes('/');
  pattern = pattern.replace(/\/+$/, '');
  const segments = path.split('/').filter((segment) => segment !== '');
  for (let end = 1; end <= segments.length; end++) {
    const candidate = anchored ? segments.slice(0, end).join('/') : segments[end - 1];
    if (minimatch(candidate, pattern, { dot: true })) return true;
  }
  return false;
}
