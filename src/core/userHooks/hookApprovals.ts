import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { readRegularFileSync } from '../io/regularFile';
import { canonicalJson } from '../trace/traceChain';
import { hookApprovalsDir } from '../paths/userStores';

/** Approved hook commands of one workspace: a few kilobytes; anything near this is not ours. */
const MAX_APPROVALS_FILE_BYTES = 1024 * 1024;

/** `sha256:<hex>` of a hook's command: what a human approves, so any change to the command asks again. */
export function commandHash(command: string): string {
  return `sha256:${createHash('sha256').update(command, 'utf8').digest('hex')}`;
}

/**
 * `sha256:<hex>` of what a hook does, for every hook that is not a shell string (exec form, http, prompt): the
 * canonical JSON of its action, so a changed URL, header, argument or prompt asks again, and key order does not.
 */
export function specHash(action: object): string {
  return `sha256:${createHash('sha256').update(canonicalJson(action), 'utf8').digest('hex')}`;
}

/** Which hook commands a human approved for a workspace; kept outside the repository, out of agents' reach. */
export interface HookApprovals {
  isApproved(root: string, hash: string): Promise<boolean>;
  approve(root: string, hash: string, command: string): Promise<void>;
}

/** `<anchor dir>/../hook-approvals/<sha256 of the workspace root>.json`, 0600 in a 0700 directory. */
export class FileHookApprovals implements HookApprovals {
  constructor(private readonly dir: string = hookApprovalsDir()) {}

  private file(root: string): string {
    return join(this.dir, `${createHash('sha256').update(root).digest('hex')}.json`);
  }

  private async read(root: string): Promise<Record<string, string>> {
    // Non-blocking and capped: a FIFO or device planted here approves nothing and cannot hang the check.
    const read = readRegularFileSync(this.file(root), { maxBytes: MAX_APPROVALS_FILE_BYTES });
    if (!read.ok) return {};
    try {
      const value = JSON.parse(read.bytes.toString('utf8')) as { approved?: Record<string, string> };
      return typeof value.approved === 'object' && value.approved !== null ? value.approved : {};
    } catch {
      return {}; // unreadable approvals approve nothing
    }
  }

  async isApproved(root: string, hash: string): Promise<boolean> {
    return Object.hasOwn(await this.read(root), hash);
  }

  async approve(root: string, hash: string, command: string): Promise<void> {
    const approved = { ...(await this.read(root)), [hash]: command };
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
    const temp = join(this.dir, `.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(JSON.stringify({ workspace: root, approved }, null, 2), 'utf8');
    } finally {
      await handle.close();
    }
    await rename(temp, this.file(root));
  }
}
