import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errnoOf } from '../ioError';
import { runGit } from '../git/gitRun';
import { SEALED_DIR } from './sealedSegments';
import { GOVERNANCE_LOG_FILE, TRACE_FILE } from './traceFiles';

/**
 * The git files the product keeps inside `.orchestration/` (a protected folder, so an agent cannot unset them). Git
 * reads a folder's own `.gitattributes` before the root's, so these marks hold whatever the repository's root file says.
 */
export const ORCHESTRATION_GITATTRIBUTES = '.orchestration/.gitattributes';
export const ORCHESTRATION_GITIGNORE = '.orchestration/.gitignore';

/** The appended logs: a union merge keeps both branches' lines; LF keeps every clone's bytes (and so hashes) the same. */
const LOGS = [TRACE_FILE, GOVERNANCE_LOG_FILE];
/** Sealed segments are never merged line by line (a seal is made on one branch) and hold too many lines to diff. */
const ATTRIBUTE_LINES = [...LOGS.map((log) => `${log.slice('.orchestration/'.length)} merge=union eol=lf`), `${SEALED_DIR}/*.jsonl eol=lf -diff`];

/**
 * What the product writes in `.orchestration/` that must never be committed: lock folders, pending entries, temp
 * names, a quarantined torn tail, and the intent map, which is rebuilt from the logs (committed, it conflicts on
 * nearly every merge).
 */
export const IGNORED_SCRATCH = ['*.lock', '*.tmp', 'pending/', 'locks/', '*.corrupt', 'intent_map.md'];

const HEADER = '# Kept by Intent Governor; lines you add are kept.';

export interface GitFilesChange {
  /** Workspace-relative files written (created or given the missing lines). */
  written: string[];
}

/**
 * Gives `.orchestration/.gitattributes` and `.orchestration/.gitignore` every line the product needs, keeping what
 * is there. Cheap when nothing is missing (two small reads); called on the first record a process writes, by
 * `hooks install` and by `doctor`.
 */
export async function ensureOrchestrationGitFiles(root: string): Promise<GitFilesChange> {
  const written: string[] = [];
  for (const [file, lines] of [[ORCHESTRATION_GITATTRIBUTES, ATTRIBUTE_LINES], [ORCHESTRATION_GITIGNORE, IGNORED_SCRATCH]] as const) {
    if (await addMissingLines(join(root, file), lines)) written.push(file);
  }
  return { written };
}

async function addMissingLines(path: string, lines: readonly string[]): Promise<boolean> {
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') throw error;
  }
  const present = new Set(text.split(/\r?\n/).map((l) => l.trim()));
  const missing = lines.filter((l) => !present.has(l));
  if (missing.length === 0) return false;
  const head = text === '' ? `${HEADER}\n` : text.endsWith('\n') ? '' : '\n';
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, `${text}${head}${missing.join('\n')}\n`);
  await rename(temp, path);
  return true;
}

/** A finding about how git treats the product's files, with what to do about it. */
export interface GitFilesProblem {
  problem: string;
  fix: string;
}

/**
 * What git would do wrong with this workspace's logs: a log without `merge=union` / `eol=lf` (as git itself resolves
 * the attributes, `info/attributes` included), a scratch path or the intent map committed. Outside git: nothing.
 */
export async function orchestrationGitProblems(root: string): Promise<GitFilesProblem[]> {
  const attrs = await runGit(root, ['check-attr', 'merge', 'eol', '--', ...LOGS]);
  if (!attrs.ok) return [];
  const problems: GitFilesProblem[] = [];
  const said = new Map<string, string>();
  for (const line of attrs.stdout.toString('utf8').split('\n')) {
    const match = /^(.*): (merge|eol): (.*)$/.exec(line);
    if (match) said.set(`${match[1]}\u0000${match[2]}`, match[3]);
  }
  for (const log of LOGS) {
    const merge = said.get(`${log}\u0000merge`);
    const eol = said.get(`${log}\u0000eol`);
    if (merge !== 'union' || eol !== 'lf') {
      problems.push({
        problem: `${log} is not marked merge=union eol=lf for git (merge: ${merge ?? 'unspecified'}, eol: ${eol ?? 'unspecified'}): two branches' records conflict, and a core.autocrlf clone changes every record's bytes`,
        fix: `run \`governor doctor\` (it writes ${ORCHESTRATION_GITATTRIBUTES}) and commit that file`,
      });
    }
  }
  const tracked = await runGit(root, ['ls-files', '-z', '--', '.orchestration']);
  if (tracked.ok) {
    const files = tracked.stdout.toString('utf8').split('\0').filter(Boolean);
    const scratch = files.filter((f) => /\.lock(\/|$)|\.tmp$|\/pending\/|\/locks\/|\.corrupt$/.test(f.startsWith('.orchestration/') ? f.slice('.orchestration'.length) : f));
    if (scratch.length) {
      problems.push({
        problem: `${scratch.length} scratch file(s) of the governor's writers are committed (${scratch.slice(0, 3).join(', ')}${scratch.length > 3 ? ', …' : ''}): another clone's writer finds a lock or a pending entry that is not its own`,
        fix: `git rm -r --cached ${[...new Set(scratch.map(scratchRoot))].join(' ')} and commit`,
      });
    }
    const map = files.find((f) => f.endsWith('/intent_map.md') || f === '.orchestration/intent_map.md');
    if (map) {
      problems.push({
        problem: `${map} is committed: it is rebuilt from the logs on every change and conflicts on nearly every merge`,
        fix: `git rm --cached ${map} and commit (${ORCHESTRATION_GITIGNORE} keeps it out from then on)`,
      });
    }
  }
  return problems;
}

/** The folder or file to untrack for one committed scratch path. */
function scratchRoot(file: string): string {
  const lock = /^(.*?\.lock)\//.exec(file);
  if (lock) return lock[1];
  const folder = /^(.*?\/(pending|locks))\//.exec(file);
  return folder ? folder[1] : file;
}
