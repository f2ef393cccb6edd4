import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFileSync } from '../io/regularFile';

/** A rewake message is a hook's stderr: capped like a reason. */
const MAX_REWAKE_BYTES = 8 * 1024;

/**
 * What user hooks keep per agent session, in files under the governor's home so that every process serving the
 * session (the extension, a headless hook process per call, the MCP server) sees the same: which `once` hooks
 * already ran (claimed by exclusive create, so two processes never both run one) and the messages `asyncRewake`
 * hooks left for the session's next call.
 */
export class HookSessionState {
  constructor(private readonly dir: string) {}

  private sessionDir(root: string, sessionId: string): string {
    return join(this.dir, createHash('sha256').update(`${root}\0${sessionId}`).digest('hex').slice(0, 32));
  }

  /** True the first time a hook claims this session, false ever after (until the session ends). */
  claimOnce(root: string, sessionId: string, hookId: string): boolean {
    const dir = this.sessionDir(root, sessionId);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(join(dir, `once-${createHash('sha256').update(hookId).digest('hex').slice(0, 32)}`), '', { flag: 'wx', mode: 0o600 });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }

  /** Leaves a message for the session's next call (published by rename: a reader never sees half of it). */
  leaveMessage(root: string, sessionId: string, message: string): void {
    const dir = this.sessionDir(root, sessionId);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const name = `${Date.now().toString().padStart(15, '0')}-${randomBytes(4).toString('hex')}`;
    writeFileSync(join(dir, `.${name}.tmp`), message.slice(0, MAX_REWAKE_BYTES), { mode: 0o600 });
    renameSync(join(dir, `.${name}.tmp`), join(dir, `rewake-${name}`));
  }

  /** The messages waiting for the session, oldest first; each is delivered once (taken by rename). */
  takeMessages(root: string, sessionId: string): string[] {
    const dir = this.sessionDir(root, sessionId);
    const messages: string[] = [];
    for (const name of waiting(dir)) {
      const taken = join(dir, `.taken-${name}`);
      try {
        renameSync(join(dir, name), taken);
      } catch {
        continue; // another process delivered it
      }
      const read = readRegularFileSync(taken, { maxBytes: MAX_REWAKE_BYTES });
      rmSync(taken, { force: true });
      if (read.ok) messages.push(read.bytes.toString('utf8'));
    }
    return messages;
  }

  /** Whether messages wait for the session (they are taken by its next call that can carry them). */
  hasMessages(root: string, sessionId: string): boolean {
    return waiting(this.sessionDir(root, sessionId)).length > 0;
  }

  /** The session is over: its markers and undelivered messages go. */
  end(root: string, sessionId: string): void {
    rmSync(this.sessionDir(root, sessionId), { recursive: true, force: true });
  }
}

/** The rewake messages in a session's folder, oldest first. */
function waiting(dir: string): string[] {
  if (!existsSync(dir)) return []; // the usual case, asked on every call: no ENOENT thrown and caught
  try {
    return readdirSync(dir).filter((n) => n.startsWith('rewake-')).sort();
  } catch {
    return [];
  }
}
