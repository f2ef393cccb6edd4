import { createHmac } from 'node:crypto';
import { detectSecrets, mightHoldSecret, type SecretFinding } from './secretDetector';

/**
 * Replaces secrets in text with `[REDACTED:<rule>:<hmac8>]`, the first 8 hex digits of HMAC-SHA256 of the
 * secret under a per-user key: records holding the same secret can still be matched, the secret cannot be
 * read back. Used on everything the governor writes to disk about a call, before a record is chained and
 * signed, so the chain and signatures cover the redacted text and a secret never has to be scrubbed later.
 */
export class SecretRedactor {
  private key: Buffer | undefined;

  /**
   * `key` is read on the first secret found (see loadRedactionKey), so a call with none never touches it. `detect`
   * finds the secrets; a test passes one that fails, to see the text withheld.
   */
  constructor(
    private readonly loadKey: () => Buffer,
    private readonly detect: (text: string) => Promise<SecretFinding[]> = detectSecrets,
  ) {}

  /** The text with each secret replaced by its marker. If the detector fails, the whole text is withheld (fail closed). */
  async redactText(text: string): Promise<string> {
    if (!mightHoldSecret(text)) return text;
    let findings: SecretFinding[];
    try {
      findings = await this.detect(text);
    } catch {
      return this.marker('unchecked', text);
    }
    // Stryker disable next-line ConditionalExpression: with no findings the loop below returns the text as it was; this only skips it
    if (findings.length === 0) return text;
    let out = '';
    let at = 0;
    for (const span of merged(findings)) {
      out += text.slice(at, span.start) + this.marker(span.rule, text.slice(span.start, span.end));
      at = span.end;
    }
    return out + text.slice(at);
  }

  /**
   * A copy of `value` (JSON-like: objects, arrays, strings, numbers) with every string redacted; objects and
   * strings without a secret come back as they were, so a clean record costs one regular-expression test per string.
   */
  async redactDeep<T>(value: T): Promise<T> {
    if (typeof value === 'string') return (await this.redactText(value)) as T;
    if (Array.isArray(value)) {
      const items = await Promise.all(value.map((item) => this.redactDeep(item)));
      return (items.every((item, i) => item === value[i]) ? value : items) as T;
    }
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value as Record<string, unknown>);
    const redacted = await Promise.all(entries.map(([, item]) => this.redactDeep(item)));
    if (redacted.every((item, i) => item === entries[i][1])) return value;
    return Object.fromEntries(entries.map(([key], i) => [key, redacted[i]])) as T;
  }

  private marker(rule: string, secret: string): string {
    this.key ??= this.loadKey();
    return `[REDACTED:${rule}:${createHmac('sha256', this.key).update(secret, 'utf8').digest('hex').slice(0, 8)}]`;
  }
}

/** Findings sorted, overlapping ones joined (the first rule names the joined span). */
function merged(findings: SecretFinding[]): SecretFinding[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretFinding[] = [];
  for (const f of sorted) {
    const last = out[out.length - 1];
    if (last && f.start <= last.end) last.end = Math.max(last.end, f.end);
    else out.push({ ...f });
  }
  return out;
}
