import type { SignerSet } from '../core/signing/workspaceSigners';
import { WORKSPACE_LOGS, type LogVerification } from '../core/trace/workspaceVerify';

/**
 * Fills `person` on the runs of unknown and revoked keys, so their messages name whom to ask: for an unknown key,
 * the author of the commit that added the first record it signed (in either log); for a revoked one, the author of
 * the commit that added its .pub. Null where git cannot say.
 */
export async function nameKeyPeople(logs: readonly LogVerification[], signers: SignerSet): Promise<void> {
  const { people } = signers;
  if (!people) return;
  const logPaths = WORKSPACE_LOGS.map((l) => l.log);
  const runs = logs.flatMap((l) => l.signatures?.runs ?? []);
  // The first record of each unknown key, across both logs (the trace first), is the one git is asked about.
  const firstHash = new Map<string, string>();
  for (const run of runs) if (run.verdict === 'unknown_key' && run.key_id && run.first_hash && !firstHash.has(run.key_id)) firstHash.set(run.key_id, run.first_hash);
  await Promise.all(
    runs.map(async (run) => {
      if (run.verdict === 'unknown_key' && run.key_id) {
        const hash = firstHash.get(run.key_id);
        run.person = (hash ? await people.recordAuthor(hash, logPaths) : undefined) ?? null;
      } else if (run.verdict === 'revoked') {
        const signer = signers.signers.find((s) => s.status === 'revoked' && s.name === run.signer);
        run.person = (signer ? await people.pubAuthor(signer.file) : undefined) ?? null;
      }
    }),
  );
}
