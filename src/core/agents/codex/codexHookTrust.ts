import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { isOurCommand } from '../../userHooks/ourHookCommand';

/**
 * Codex runs a project's hooks only once the person has trusted each one: its hash is recorded under
 * `[hooks.state."<file>:<event>:<group>:<handler>"] trusted_hash` in the user's `$CODEX_HOME/config.toml`, and a
 * changed hook (another CLI path) is untrusted again. The hash is Codex's to compute, so this asks Codex itself,
 * the way its /hooks screen does: `codex app-server` (JSON-RPC over stdio) lists the hooks with their current
 * hash (`hooks/list`), and `config/batchWrite` records the trust. Only the governor's own entries in the
 * project's .codex/hooks.json are trusted; the person's other hooks are left for them to review.
 */
export type CodexTrustResult =
  | { action: 'written' | 'unchanged'; file: string; note?: string }
  | { action: 'failed'; file: string; message: string };

/** Long enough for a cold start of the 300 MB binary; the install fails rather than hang. */
const TIMEOUT_MS = 30_000;

interface ListedHook {
  key: string;
  command?: string | null;
  sourcePath?: string;
  enabled?: boolean;
  currentHash?: string;
  trustStatus?: string;
}

function codexHome(env: NodeJS.ProcessEnv): string {
  return env.CODEX_HOME || join(env.HOME || homedir(), '.codex');
}

function realOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/** A JSON-RPC client for `codex app-server` on stdio; every call fails with a message rather than hang. */
class AppServer {
  private readonly pending = new Map<number, (reply: { result?: unknown; error?: { message?: string } }) => void>();
  private next = 0;
  private readonly exited: Promise<string>;

  private constructor(private readonly child: ReturnType<typeof spawn>) {
    child.stdin?.on('error', () => undefined); // a binary that never started: `exited` says why
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      let message: { id?: number; result?: unknown; error?: { message?: string } };
      try {
        message = JSON.parse(line);
      } catch {
        return; // not ours to read (a log line)
      }
      if (typeof message.id === 'number') this.pending.get(message.id)?.(message);
    });
    this.exited = new Promise((resolve) => {
      child.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ENOENT' ? 'ENOENT' : error.message));
      child.on('exit', (code, signal) => resolve(`codex app-server exited (${signal ?? code})`));
    });
  }

  static start(binary: string, cwd: string, env: NodeJS.ProcessEnv): AppServer {
    return new AppServer(spawn(binary, ['app-server'], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] }));
  }

  async call(method: string, params: unknown): Promise<unknown> {
    const id = ++this.next;
    const reply = new Promise<{ result?: unknown; error?: { message?: string } }>((resolve) => this.pending.set(id, resolve));
    this.child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    const outcome: { result?: unknown; error?: { message?: string } } = await Promise.race([reply, this.exited.then((why) => ({ error: { message: why } }))]);
    this.pending.delete(id);
    if (outcome.error) throw new Error(outcome.error.message === 'ENOENT' ? 'ENOENT' : `${method}: ${outcome.error.message ?? 'failed'}`);
    return outcome.result;
  }

  notify(method: string): void {
    this.child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }

  stop(): void {
    this.child.kill();
  }
}

async function listOurs(server: AppServer, root: string, hooksFile: string): Promise<ListedHook[]> {
  const listed = (await server.call('hooks/list', { cwds: [root] })) as { data?: { hooks?: ListedHook[] }[] };
  const expected = realOrSelf(hooksFile);
  return (listed.data ?? []).flatMap((entry) => entry.hooks ?? []).filter((hook) => isOurCommand(hook.command) && hook.sourcePath !== undefined && realOrSelf(hook.sourcePath) === expected);
}

/**
 * Trusts the governor's hooks in `<root>/.codex/hooks.json` with the Codex CLI found as `binary` (default: `codex`
 * on PATH, under `env`'s CODEX_HOME). Without Codex installed there is nothing to trust yet: the note says what to
 * do once it is. A project Codex does not trust, or a hook the person disabled, is a failure that says how to fix it.
 */
export async function trustCodexHooks(root: string, hooksFile: string, env: NodeJS.ProcessEnv, binary = 'codex'): Promise<CodexTrustResult> {
  const config = join(codexHome(env), 'config.toml');
  const server = AppServer.start(binary, root, env);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`codex app-server did not answer within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
  });
  const work = async (): Promise<CodexTrustResult> => {
    await server.call('initialize', { clientInfo: { name: 'intent-governor', title: 'Intent Governor', version: '0' } });
    server.notify('initialized');
    const ours = await listOurs(server, root, hooksFile);
    if (ours.length === 0) {
      return {
        action: 'failed',
        file: config,
        message: `Codex does not load ${hooksFile}: it reads a project's .codex/ folder only once you trust the project, and only when codex starts in the project (or a folder of its git repository). Start codex in ${root} and trust the project (or add [projects."${root}"] trust_level = "trusted" to ${config}), then run this install again to trust the hooks.`,
      };
    }
    const disabled = ours.filter((hook) => hook.enabled === false);
    if (disabled.length) return { action: 'failed', file: config, message: `Codex has Intent Governor's hook ${disabled[0].key} disabled, so Codex's tools would run ungoverned: enable it in codex's /hooks screen.` };
    const untrusted = ours.filter((hook) => hook.trustStatus !== 'trusted' && hook.trustStatus !== 'managed');
    if (untrusted.length === 0) return { action: 'unchanged', file: config };
    const state = Object.fromEntries(untrusted.map((hook) => [hook.key, { trusted_hash: hook.currentHash }]));
    const written = (await server.call('config/batchWrite', { edits: [{ keyPath: 'hooks.state', value: state, mergeStrategy: 'upsert' }], filePath: null, expectedVersion: null, reloadUserConfig: false })) as { filePath?: string } | undefined;
    const still = (await listOurs(server, root, hooksFile)).filter((hook) => hook.trustStatus !== 'trusted' && hook.trustStatus !== 'managed');
    const file = written?.filePath ?? config;
    if (still.length) return { action: 'failed', file, message: `Codex still lists ${still.length} of Intent Governor's hooks as not trusted (${still[0].key}); trust them in codex's /hooks screen.` };
    return { action: 'written', file, note: `trusted Intent Governor's ${untrusted.length} hooks in ${dirname(hooksFile)} (hooks.state)` };
  };
  try {
    return await Promise.race([work(), timedOut]);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (message === 'ENOENT') {
      return { action: 'unchanged', file: config, note: `no ${binary} on PATH: when you first run codex in this project, trust the project and review and trust Intent Governor's hooks in its /hooks screen (Codex runs a project's hooks only once trusted)` };
    }
    return { action: 'failed', file: config, message: `could not trust Intent Governor's hooks through ${binary} app-server (${message}); trust them in codex's /hooks screen.` };
  } finally {
    clearTimeout(timer);
    server.stop();
  }
}
