import { isKeyId, isRecordSignature, isUnsignedNote, signatureMatches } from '../signing/recordSignature';
import { SIGNERS_DIR, type SignerSet } from '../signing/workspaceSigners';
import { AFTER_POINT, POINT_MISMATCH, SIGNATURE_VERDICTS, type SignatureReport, type SignatureRun, type SignatureVerdict } from './signatureAudit';
import { canonicalJson, isSigningNote, SIGNATURE_KEY, SIGNING_KEY, SIGNING_SCHEME, type ChainFields } from './traceChain';

/**
 * The runs as lines a human reads, e.g. `lines 2-40: signed by alice@laptop`; at most `limit` runs. A run about an
 * unknown or revoked key takes more lines, indented: whose key it is, the .pub to commit and the command to run.
 */
export function describeSignatureRuns(report: SignatureReport, limit = 50): string[] {
  const lines = report.runs.slice(0, limit).flatMap((run) => {
    const [first, ...more] = describeRun(run).split('\n');
    return [`${run.from === run.to ? `line ${run.from}` : `lines ${run.from}-${run.to}`}: ${first}`, ...more.map((line) => `  ${line}`)];
  });
  if (report.runs.length > limit) lines.push(`… ${report.runs.length - limit} more (--json lists every run)`);
  return lines;
}

/** `12 signed (alice@laptop 10, ci 2), 1 unsigned, 3 legacy`. */
export function describeSignatureCounts(report: SignatureReport): string {
  if (report.records === 0) return 'no records';
  const names = Object.entries(report.signers).map(([name, n]) => `${name} ${n}`).join(', ');
  const parts = SIGNATURE_VERDICTS.filter((v) => report.counts[v] > 0).map((v) =>
    v === 'signed' ? `${report.counts[v]} signed by a known signer${names ? ` (${names})` : ''}` : `${report.counts[v]} ${VERDICT_WORDS[v]}`,
  );
  return parts.join(', ');
}

const VERDICT_WORDS: Record<SignatureVerdict, string> = {
  signed: 'signed',
  signed_before_revocation: 'signed by a now revoked key before its revocation',
  unsigned: 'UNSIGNED',
  legacy: 'unsigned (legacy)',
  unknown_key: 'signed by an UNKNOWN key',
  revoked: 'signed by a REVOKED key',
  invalid: 'with a BAD signature',
};

function describeRun(run: SignatureRun): string {
  switch (run.verdict) {
    case 'signed':
      return `signed by ${run.signer} (${run.key_id})`;
    case 'signed_before_revocation':
      return `signed by ${run.signer} (${run.key_id}) before its revocation`;
    case 'legacy':
      return 'unsigned (legacy: written before records were signed)';
    case 'unsigned':
      return `UNSIGNED (${run.reason})`;
    case 'unknown_key':
      return `signed by an UNKNOWN key ${run.key_id}\n${unknownKeyAdvice(run.person)}`;
    case 'revoked':
      return `signed by ${run.signer} (${run.key_id}), a REVOKED key\n${revokedKeyAdvice(run)}`;
    case 'invalid':
      return run.signer
        ? `BAD SIGNATURE: claims ${run.signer} (${run.key_id}) but does not match the record (forged, or edited after signing)`
        : `BAD SIGNATURE (${run.reason ?? 'does not match the record'})`;
  }
}

/** `Bob <bob@example.test>` → `Bob`: the person a command is addressed to. */
function firstName(person: string): string {
  const name = person.replace(/\s*<[^>]*>\s*$/, '').trim();
  return name || person;
}

/** The key's owner publishes it (keys init publishes the key a machine has, under its own name) and commits it. */
function unknownKeyAdvice(person: string | null | undefined): string {
  const who =
    typeof person === 'string'
      ? `first used in a commit by ${person}, and no .pub holds it: ${firstName(person)} runs`
      : person === null
        ? 'no .pub holds it, and git cannot say whose (no repository, or shallow): its owner runs'
        : `no .pub in ${SIGNERS_DIR}/ holds it: its owner runs`;
  return `${who}\n\`governor keys init\`, then \`git add ${SIGNERS_DIR}/<name>.pub && git commit\``;
}

/** Where the records stand against the revocation, who added the key, and what its owner does next. */
function revokedKeyAdvice(run: SignatureRun): string {
  const count = run.to - run.from + 1;
  const records = `${count} record${count === 1 ? '' : 's'}`;
  const where =
    run.reason === AFTER_POINT
      ? `${records} ${AFTER_POINT}`
      : run.reason === POINT_MISMATCH
        ? `${records}: ${POINT_MISMATCH}`
        : `${records}, all revoked: no revoked/${run.signer}.json says where`;
  const added = typeof run.person === 'string' ? `; added by ${run.person}` : run.person === null ? '; git cannot say who added it' : '';
  const who = typeof run.person === 'string' ? firstName(run.person) : 'its owner';
  return `${where}${added}\n${who} runs \`governor keys init --rotate\` and commits the new .pub`;
}

/**
 * One record's signature on its own, as the inspector's detail pane shows it. Without the log around it, a
 * record with no signature field cannot be told legacy from appended-later, so the text says both.
 */
export function judgeRecordSignature(record: Record<string, unknown>, fields: ChainFields, signers: SignerSet): { verdict: SignatureVerdict; text: string } {
  const holder = fields(record) ?? {};
  const field = holder[SIGNATURE_KEY];
  if (field === undefined) return { verdict: 'unsigned', text: 'unsigned: no signature (written before records were signed, or appended by something that is not a governor)' };
  let run: SignatureRun;
  if (isUnsignedNote(field)) run = { from: 0, to: 0, verdict: 'unsigned', reason: `the writer said: ${field.unsigned}` };
  else if (!isRecordSignature(field) || !isKeyId(field.key_id)) run = { from: 0, to: 0, verdict: 'invalid', reason: 'the signature field is malformed' };
  else {
    const signer = signers.byKeyId.get(field.key_id);
    const note = holder[SIGNING_KEY];
    if (!signer) run = { from: 0, to: 0, verdict: 'unknown_key', key_id: field.key_id };
    else if (note !== undefined && (!isSigningNote(note) || note.scheme !== SIGNING_SCHEME || note.key_id !== field.key_id)) {
      run = { from: 0, to: 0, verdict: 'invalid', signer: signer.name, key_id: field.key_id };
    } else {
      const { [SIGNATURE_KEY]: _signature, ...rest } = holder;
      const ok = signatureMatches(canonicalJson(holder === record ? rest : { ...record, metadata: rest }), field, signer.key);
      run = { from: 0, to: 0, verdict: ok ? (signer.status === 'revoked' ? 'revoked' : 'signed') : 'invalid', signer: signer.name, key_id: field.key_id };
    }
  }
  return { verdict: run.verdict, text: describeRun(run).split('\n')[0] };
}
