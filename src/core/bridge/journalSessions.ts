import { governorHome } from '../paths/governorHome';
import { loadRedactionKey } from '../redaction/redactionKey';
import { SecretRedactor } from '../redaction/secretRedactor';
import type { PendingNativeChange, PendingNativeInput } from './pendingNativeChanges';

// `<dialect>:<uuid>`, the session id of most agents: no secret has that shape, so the detector is not asked.
const UUID_SESSION = /^(?:[\w-]+:)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Sessions a process has seen are few; a bound keeps a resident's memo from growing with every session ever. */
const MAX_REMEMBERED = 4096;

/**
 * The session id as the write-ahead journal (`.orchestration/pending/`) keeps it: redacted as the trace redacts it
 * (the same per-user key, so the same marker), since an agent's session id can be a token. Learned once per session
 * (`learn`, async: the detector), then applied where the journal is written and read (`journalForm`, sync).
 */
export class JournalSessions {
  private readonly redactor: SecretRedactor;
  private readonly forms = new Map<string, string>();

  constructor(home: string | undefined) {
    this.redactor = new SecretRedactor(() => loadRedactionKey(home ?? governorHome()));
  }

  /** Finds the journal form of `session` (before an entry of it is written, or a reconciliation looks for it). */
  async learn(session: string): Promise<void> {
    if (this.forms.has(session) || UUID_SESSION.test(session)) return;
    const form = await this.redactor.redactText(session);
    if (this.forms.size >= MAX_REMEMBERED) this.forms.delete(this.forms.keys().next().value as string);
    this.forms.set(session, form);
  }

  /** The session as the journal holds it (itself when it holds no secret, or has not been learned). */
  journalForm(session: string): string {
    return this.forms.get(session) ?? session;
  }

  /** `text` (a key or invocation id, which start with the session) with the session in its journal form. */
  inJournal(text: string, session: string): string {
    const form = this.journalForm(session);
    return form === session ? text : text.split(session).join(form);
  }

  /** An entry about to be written, with the session redacted wherever it stands. */
  scrub<T extends PendingNativeInput>(entry: T): T {
    const session = entry.session_id;
    if (this.journalForm(session) === session) return entry;
    const command = entry.command ? { ...entry.command, invocation_id: this.inJournal(entry.command.invocation_id, session) } : undefined;
    return { ...entry, session_id: this.journalForm(session), key: this.inJournal(entry.key, session), ...(command ? { command } : {}) };
  }

  /** Whether a journal entry belongs to `session` (as the agent sends it). */
  isOf(entry: Pick<PendingNativeChange, 'session_id'>, session: string): boolean {
    return entry.session_id === session || entry.session_id === this.journalForm(session);
  }
}
