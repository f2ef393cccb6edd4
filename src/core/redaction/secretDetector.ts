/** A secret found in a text: where it is (UTF-16 offsets, end exclusive) and the detector's name for its kind. */
export interface SecretFinding {
  start: number;
  end: number;
  /** Kebab-case kind, e.g. `github-token`, `aws-secret-access-key`, `basic-auth`. */
  rule: string;
}

/**
 * A cheap gate in front of the detector: true for every text the detector could flag, so the detector (and its
 * first load, tens of milliseconds) runs only for the few strings that look like they might hold a secret. A
 * token is a long run of token characters: 30 or more, or 20 or more with a digit (an ordinary identifier such
 * as `verifiedSignatureCache` has none); shorter or structured secrets have a marker: a URL with a password, a
 * PEM header, an AWS secret key's name, or one of the short-token prefixes. It errs towards true;
 * test/unit/core/redaction checks it lets through every sample secret the detector finds.
 */
const TOKEN_RUN = /[\w+=-]{20,}/g;
const MARKER = /:\/\/[^\s@/]*:[^\s@]*@|PRIVATE KEY|secret_?access_?key|_authToken|hooks\.slack\.com|\b(?:xox[a-z]?-|xapp-|SG\.\w|glpat-|glc_|glsa_|dckr_pat_|figd_|vc[piark]_|cf(?:k|ut|at)_|tskey-|dapi|hf_|ops_)/i;

export function mightHoldSecret(text: string): boolean {
  if (text.length < 8) return false;
  if (MARKER.test(text)) return true;
  for (const [run] of text.matchAll(TOKEN_RUN)) if (run.length >= 30 || /\d/.test(run)) return true;
  return false;
}

type LintSource = typeof import('@secretlint/core').lintSource;
interface Detector {
  lintSource: LintSource;
  config: Parameters<LintSource>[0]['options']['config'];
}

let detector: Promise<Detector> | undefined;

/** secretlint's core with its recommended preset, loaded on the first suspect text (all are ES modules). */
function loadDetector(): Promise<Detector> {
  detector ??= Promise.all([import('@secretlint/core'), import('@secretlint/secretlint-rule-preset-recommend'), import('@secretlint/profiler')]).then(([core, preset, profiler]) => {
    // secretlint marks every lint in the process-wide performance buffer and keeps each entry in an array that
    // nothing empties: ~60 entries per suspect text, without bound in a resident governor or the extension host.
    profiler.secretLintProfiler.mark = () => undefined;
    return { lintSource: core.lintSource, config: { rules: [{ id: preset.creator.meta.id, rule: preset.creator }] } };
  });
  return detector;
}

/**
 * An AWS secret access key after its name, which secretlint's rule misses when the key ends in `/` or `+` (its
 * pattern closes with a word boundary): one key in 32 does.
 */
const AWS_SECRET_ACCESS_KEY = /["']?(?:AWS|aws|Aws)?_?(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)_?(?:KEY|key|Key)["']?\s*(?::|=>|=)\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/g;

/** Findings of the patterns above that secretlint's rules miss. */
function findingsSecretlintMisses(text: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const match of text.matchAll(AWS_SECRET_ACCESS_KEY)) {
    const start = (match.index ?? 0) + match[0].length - match[1].length;
    findings.push({ start, end: start + match[1].length, rule: 'aws-secret-access-key' });
  }
  return findings;
}

/**
 * The secrets secretlint's recommended rules find in `text`. Each finding covers the rule's reported range
 * and the secret the rule names in its message data (some rules report a range that starts at the variable
 * name, not at the secret).
 */
export async function detectSecrets(text: string): Promise<SecretFinding[]> {
  if (!mightHoldSecret(text)) return [];
  const { lintSource, config } = await loadDetector();
  const result = await lintSource({
    // No file name: the PKCS#12 rule then skips its file look-up (a dynamic import of node:fs, which fails in a
    // bundle loaded through the code cache); the text is no file anyway.
    source: { filePath: '', ext: '.txt', content: text, contentType: 'text' },
    options: { config, noPhysicFilePath: true, maskSecrets: false },
  });
  const findings = findingsSecretlintMisses(text);
  for (const message of result.messages) {
    const rule = kebab(message.messageId ?? message.ruleId);
    const [start, end] = message.range;
    findings.push({ start, end, rule });
    for (const value of Object.values(message.data ?? {})) {
      if (typeof value !== 'string' || value.length < 8) continue;
      const at = text.indexOf(value, start);
      if (at >= 0 && at <= end) findings.push({ start: at, end: at + value.length, rule });
    }
  }
  return findings;
}

function kebab(id: string): string {
  const name = id.replace(/^@secretlint\/secretlint-rule-/, '');
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}
