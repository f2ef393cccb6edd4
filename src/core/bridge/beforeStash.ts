import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApprovalDecision } from '../approval/approver';
import { readRegularFileSync } from '../io/regularFile';

/** What the pre phase saw of one native invocation, so the post phase can trace what the tool changed. */
export interface StashedInvocation {
  /** Absolute path → content before the native tool ran (absent = the file did not exist). */
  before: Record<string, string | null>;
  approval?: ApprovalDecision;
  invocationId: string;
}

/** Pre writes, post takes (once). The extension keeps it in memory; headless runs are separate processes. */
export interface BeforeStash {
  put(key: string, entry: StashedInvocation): Promise<void>;
  take(key: string): Promise<StashedInvocation | undefined>;
}

const MAX_MEMORY_ENTRIES = 256;

export class MemoryBeforeStash implements BeforeStash {
  private readonly entries = new Map<string, StashedInvocation>();

  async put(key: string, entry: StashedInvocation): Promise<void> {
    this.entries.delete(key);
    this.entries.set(key, entry);
    // A pre whose post never comes (the tool failed, the agent was stopped) must not pile up.
    if (this.entries.size > MAX_MEMORY_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }

  async take(key: string): Promise<StashedInvocation | undefined> {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    return entry;
  }
}

const STALE_MS = 60 * 60_000;
/** Before-contents are kept up to 2 MiB per file; an entry past this is not one we wrote, and is dropped. */
const MAX_FILE_ENTRY_BYTES = 64 * 1024 * 1024;

/**
 * One 0600 file per pending invocation in a 0700 directory outside the repository (file contents must not
 * land where agents can read them back or commit them); entries older than an hour are swept on write.
 * Synchronous inside: it serves one short-lived hook process, where every thread-pool round trip costs
 * more than the call it carries.
 */
export class FileBeforeStash implements BeforeStash {
  constructor(private readonly dir: string) {}

  private file(key: string): string {
    return join(this.dir, `${createHash('sha256').update(key).digest('hex')}.json`);
  }

  async put(key: string, entry: StashedInvocation): Promise<void> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    this.sweep();
    const temp = join(this.dir, `.${randomBytes(6).toString('hex')}.tmp`);
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeFileSync(fd, JSON.stringify(entry), 'utf8');
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.file(key));
  }

  async take(key: string): Promise<StashedInvocation | undefined> {
    const file = this.file(key);
    // Non-blocking and capped: whatever sits at the entry's name, the post phase answers promptly.
    const read = readRegularFileSync(file, { maxBytes: MAX_FILE_ENTRY_BYTES, noFollow: true });
    rmSync(file, { force: true });
    if (!read.ok) return undefined;
    try {
      return JSON.parse(read.bytes.toString('utf8')) as StashedInvocation;
    } catch {
      return undefined;
    }
  }

  private sweep(): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    const now = Date.now();
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const file = join(this.dir, name);
      const info = statSync(file, { throwIfNoEntry: false });
      if (info && now - info.mtimeMs > STALE_MS) rmSync(file, { force: true });
    }
  }
}

/**
 * A resident governor's stash: its own pres in memory, and a pre that a one-shot hook process answered (before the
 * resident was up, or while it was down) found in that process's files.
 */
export class ResidentBeforeStash implements BeforeStash {
  private readonly memory = new MemoryBeforeStash();

  constructor(private readonly files: BeforeStash) {}

  put(key: string, entry: StashedInvocation): Promise<void> {
    return this.memory.put(key, entry);
  }

  async take(key: string): Promise<StashedInvocation | undefined> {
    return (await this.memory.take(key)) ?? this.files.take(key);
  }
}
