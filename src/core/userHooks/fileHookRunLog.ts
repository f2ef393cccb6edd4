import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readRegularFileSync } from '../io/regularFile';
import { loadRedactionKey } from '../redaction/redactionKey';
import { SecretRedactor } from '../redaction/secretRedactor';
import type { HookRunLog, HookRunRecord } from './hookRunLog';
import { homeStore } from '../paths/userStores';

/** One workspace's last runs: a few kilobytes; anything near this is not ours and reads as empty. */
const MAX_RUN_LOG_BYTES = 1024 * 1024;
/** Hook ids change when a hooks file is edited; the oldest entries go first so the file stays small. */
const MAX_RECORDS = 500;

/**
 * `<governor home>/hook-runs/<sha256 of the workspace root>.json`, 0600 in a 0700 directory, replaced by
 * temp file + rename so a reader never sees half a file. Records from one process are written one at a
 * time; two processes recording at the same moment may lose one of the two records (it is only the last run).
 */
export class FileHookRunLog implements HookRunLog {
  private queue: Promise<void> = Promise.resolve();
  /** A failed run's reason can quote the hook's output: its secrets are redacted as in the logs (keyed in the governor home). */
  private readonly redactor: SecretRedactor;

  constructor(private readonly dir: string = homeStore('hook-runs')) {
    this.redactor = new SecretRedactor(() => loadRedactionKey(dirname(dir)));
  }

  private file(root: string): string {
    return join(this.dir, `${createHash('sha256').update(root).digest('hex')}.json`);
  }

  async read(root: string): Promise<Record<string, HookRunRecord>> {
    return this.readNow(root);
  }

  record(root: string, hookId: string, run: HookRunRecord): Promise<void> {
    const next = this.queue.then(async () => this.write(root, hookId, { ...run, result: await this.redactor.redactText(run.result) }));
    // A failed write must not stop the records queued after it.
    this.queue = next.catch(() => undefined);
    return next;
  }

  private readNow(root: string): Record<string, HookRunRecord> {
    // Non-blocking and capped: a FIFO or device planted here reads as "never run" and cannot hang a listing.
    const read = readRegularFileSync(this.file(root), { maxBytes: MAX_RUN_LOG_BYTES });
    if (!read.ok) return {};
    try {
      const value = JSON.parse(read.bytes.toString('utf8')) as { runs?: unknown };
      if (typeof value.runs !== 'object' || value.runs === null || Array.isArray(value.runs)) return {};
      const runs: Record<string, HookRunRecord> = {};
      for (const [id, run] of Object.entries(value.runs as Record<string, unknown>)) {
        if (isRunRecord(run)) runs[id] = { result: run.result, durationMs: run.durationMs, at: run.at };
      }
      return runs;
    } catch {
      return {}; // an unreadable log is an empty one: it only informs listings
    }
  }

  private async write(root: string, hookId: string, run: HookRunRecord): Promise<void> {
    const runs = { ...this.readNow(root), [hookId]: run };
    const kept = Object.entries(runs)
      .sort(([, a], [, b]) => b.at.localeCompare(a.at))
      .slice(0, MAX_RECORDS);
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
    const temp = join(this.dir, `.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(JSON.stringify({ workspace: root, runs: Object.fromEntries(kept) }, null, 2), 'utf8');
    } finally {
      await handle.close();
    }
    await rename(temp, this.file(root)).catch(async (error: unknown) => {
      await rm(temp, { force: true });
      throw error;
    });
  }
}

function isRunRecord(value: unknown): value is HookRunRecord {
  if (typeof value !== 'object' || value === null) return false;
  const run = value as Record<string, unknown>;
  return typeof run.result === 'string' && typeof run.durationMs === 'number' && Number.isFinite(run.durationMs) && typeof run.at === 'string';
}
