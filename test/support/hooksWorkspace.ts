import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bundledScript } from './bundledScript';
import { finished, runNode, type Finished } from './childProcesses';

/** A workspace with hooks files, and a private governor home and anchor folder for the real `governor` CLI. */
export interface HooksWorkspace {
  root: string;
  home: string;
  anchorDir: string;
  /** Where the governor keeps this machine's approvals. */
  approvalsDir: string;
  env: NodeJS.ProcessEnv;
  file(rel: string, content: string): Promise<void>;
  /** `governor <args>` with stdin not a terminal. */
  governor(args: string[]): Promise<Finished>;
  /** `governor <args>` on a real terminal (util-linux `script` gives it a pty); `answer` is typed once `prompt` shows. */
  governorInTerminal(args: string[], prompt: string, answer: string): Promise<Finished>;
  dispose(): Promise<void>;
}

const CLI = () => bundledScript(join(__dirname, '..', '..', 'src', 'cli', 'main.ts'));

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export async function hooksWorkspace(): Promise<HooksWorkspace> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'ig-hooks-cli-')));
  const root = join(base, 'project');
  const home = join(base, 'governor-home');
  const anchorDir = join(base, 'config', 'anchors');
  await mkdir(root, { recursive: true });
  const env = { ...process.env, INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: anchorDir };
  return {
    root,
    home,
    anchorDir,
    approvalsDir: join(base, 'config', 'hook-approvals'),
    env,
    async file(rel, content) {
      const path = rel.startsWith('~/') ? join(home, rel.slice(2)) : join(root, rel);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content);
    },
    governor: (args) => runNode(CLI(), args, env, root),
    governorInTerminal(args, prompt, answer) {
      const command = [process.execPath, CLI(), ...args].map(shellQuote).join(' ');
      const child = spawn('script', ['-qec', command, '/dev/null'], { env, cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
      let seen = '';
      child.stdout.on('data', (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        if (seen.includes(prompt) && !child.stdin.writableEnded) child.stdin.end(`${answer}\n`);
      });
      return finished(child);
    },
    dispose: () => rm(base, { recursive: true, force: true }),
  };
}
