import { lstat, readFile } from 'node:fs/promises';
import { hostname, userInfo } from 'node:os';
import { basename, resolve } from 'node:path';
import { defaultKeysDir, FileSigningKeyStore } from '../core/signing/fileSigningKeyStore';
import { setUpSigningKey } from '../core/signing/signerSetup';
import { defaultSignerName, signerNameProblem } from '../core/signing/signingKey';
import { loadWorkspaceSigners, publishSigner, revokeSigner, SIGNERS_DIR, type PublishOutcome } from '../core/signing/workspaceSigners';
import { workspaceLogPositions } from '../core/trace/logPosition';
import { parseCliArgs, usageError, workspaceFrom } from './cliArgs';
import type { CliCommand, CliIO } from './cliCommand';

const USAGE = `governor keys: the key this machine signs trace records with, and the workspace's signers

Usage: governor keys init [--name NAME] [--rotate] [--workspace DIR]
       governor keys list [--workspace DIR] [--json]
       governor keys trust FILE [--name NAME] [--workspace DIR]
       governor keys revoke NAME [--workspace DIR]

Every record the CLI writes (governor mcp, the hook bridge) is signed with the Ed25519 key in
~/.intent-governor/keys/signer.json ($INTENT_GOVERNOR_HOME/keys), a 0600 file in a 0700 folder; with no
key, records say they are unsigned. \`governor trace verify\` trusts the public keys in
${SIGNERS_DIR}/<name>.pub, which are committed and reviewed like code (agents cannot write them).

init     makes this machine's key (NAME defaults to <user>@<host>) and publishes its public half as
         ${SIGNERS_DIR}/NAME.pub in the workspace: commit that file. With a key already here, publishes
         it in this workspace. --rotate makes a new key (the old one is kept in keys/retired/, unused) and
         publishes it under a new name beside the old .pub, so records signed before stay valid.
list     this machine's key, and every signer of the workspace: trusted, revoked, or a file that is not a key.
trust    publishes another signer's public key (a CI runner's, a colleague's .pub) as ${SIGNERS_DIR}/NAME.pub
         (NAME defaults to the file's name).
revoke   moves ${SIGNERS_DIR}/NAME.pub to ${SIGNERS_DIR}/revoked/ and writes revoked/NAME.json: where
         each log stands now. Records the key signed up to there still verify; any later one fails
         \`governor check --require-signatures\`, and the key signs nothing more. Commit both files. For a
         key that may have been stolen; to retire a key you still trust, rotate instead.
Exit 0 done; 1 refused (a name taken by another key, an unusable key); 2 bad arguments.
`;

const MODES = ['init', 'list', 'trust', 'revoke'] as const;
type Mode = (typeof MODES)[number];
const MODE_OPTIONS: Record<Mode, string[]> = { init: ['name', 'rotate', 'workspace'], list: ['workspace', 'json'], trust: ['name', 'workspace'], revoke: ['workspace'] };
const MODE_POSITIONALS: Record<Mode, number> = { init: 0, list: 0, trust: 1, revoke: 1 };

export const keysCommand: CliCommand = {
  name: 'keys',
  summary: 'This machine\'s signing key (init, --rotate) and the workspace\'s signers (list, trust, revoke)',
  usage: USAGE,
  async run(args, io) {
    const parsed = parseCliArgs(args, { name: { type: 'string' }, rotate: { type: 'boolean' }, workspace: { type: 'string' }, json: { type: 'boolean' } }, true);
    if (!parsed.ok) return usageError(io, 'keys', parsed.message);
    const [mode, ...rest] = parsed.positionals;
    if (!MODES.includes(mode as Mode)) return usageError(io, 'keys', mode ? `unknown mode '${mode}'` : 'say init, list, trust or revoke');
    const m = mode as Mode;
    const stray = Object.keys(parsed.values).find((o) => parsed.values[o] !== undefined && !MODE_OPTIONS[m].includes(o));
    if (stray) return usageError(io, 'keys', `${m} takes no --${stray}`);
    if (rest.length !== MODE_POSITIONALS[m]) return usageError(io, 'keys', MODE_POSITIONALS[m] ? `${m} takes one ${m === 'trust' ? 'FILE' : 'NAME'}` : `${m} takes no ${rest[0]}`);
    const name = parsed.values.name as string | undefined;
    const nameProblem = name === undefined ? undefined : signerNameProblem(name);
    if (nameProblem) return usageError(io, 'keys', nameProblem);
    const root = await workspaceFrom(parsed.values.workspace, io, 'keys');
    if (!root) return 2;
    const store = new FileSigningKeyStore(defaultKeysDir(io.env));
    if (m === 'init') return init(root, store, { name, rotate: parsed.values.rotate === true }, io);
    if (m === 'list') return list(root, store, parsed.values.json === true, io);
    if (m === 'trust') return trust(root, resolve(io.cwd, rest[0]), name, io);
    return revoke(root, rest[0], io);
  },
};

/** Revokes from where the logs stand now, and says which files to commit and how. */
async function revoke(root: string, name: string, io: CliIO): Promise<number> {
  const positions = await workspaceLogPositions(root);
  const outcome = await revokeSigner(root, name, positions.logs);
  if (!outcome.ok) return report(outcome, io, () => '');
  const at = Object.entries(positions.logs).map(([log, p]) => `${log.slice(log.lastIndexOf('/') + 1)} line ${p.records}`);
  io.stdout(`revoked ${name} (${outcome.keyId}): moved ${SIGNERS_DIR}/${name}.pub to ${outcome.file}\n`);
  io.stdout(`wrote ${outcome.point}: what ${name} signed up to here (${at.join(', ')}) still verifies, later records fail\n`);
  for (const problem of positions.problems) io.stdout(`warning: ${problem}: every record of ${name} in it counts as revoked\n`);
  io.stdout(`commit ${outcome.file} and ${outcome.point}:\n  git add -A ${SIGNERS_DIR} && git commit -m "Revoke ${name}'s signing key"\n`);
  return 0;
}

async function init(root: string, store: FileSigningKeyStore, options: { name?: string; rotate: boolean }, io: CliIO): Promise<number> {
  const outcome = await setUpSigningKey(root, store, { ...options, defaultName: defaultSignerName(safeUser(io.env), hostname()) });
  if (outcome.kind === 'refused') {
    io.stderr(`governor keys init: ${outcome.message}\n`);
    return 1;
  }
  if (outcome.kind === 'existing') {
    const { key, published } = outcome;
    io.stdout(`this machine already signs with ${key.name} (${key.key_id}), in ${store.location}\n`);
    io.stdout(published.already ? `already published as ${published.file}\n` : `published ${published.file}: commit it\n`);
    return 0;
  }
  const { key, previous, file } = outcome;
  io.stdout(`created signing key ${key.name} (${key.key_id}) in ${store.location}\n`);
  if (previous) {
    io.stdout(`the old key ${previous.name} (${previous.key_id}) is retired on this machine; its .pub stays, so the records it signed stay valid. If it may have been stolen: governor keys revoke ${previous.name}\n`);
  }
  io.stdout(`published ${file}: commit it. Records written on this machine are signed from now on.\n`);
  return 0;
}

async function list(root: string, store: FileSigningKeyStore, json: boolean, io: CliIO): Promise<number> {
  const current = await store.load();
  const signers = await loadWorkspaceSigners(root);
  const mine = current.key ? signers.byKeyId.get(current.key.key_id) : undefined;
  if (json) {
    const key = current.key ? { name: current.key.name, key_id: current.key.key_id, created: current.key.created, file: store.location, published: mine?.file ?? null } : null;
    const rows = signers.signers.map((s) => ({ name: s.name, key_id: s.keyId, status: s.status, file: s.file, this_machine: s.keyId === current.key?.key_id }));
    io.stdout(`${JSON.stringify({ key, key_problem: current.problem ?? null, signers: rows, problems: signers.problems }, null, 2)}\n`);
    return 0;
  }
  if (current.key) {
    const where = mine ? (mine.status === 'revoked' ? `REVOKED in this workspace (${mine.file})` : `published as ${mine.file}`) : 'NOT published in this workspace: `governor keys init` publishes it';
    io.stdout(`this machine: ${current.key.name} (${current.key.key_id}), ${where}\n`);
  } else {
    io.stdout(`this machine: ${current.problem ?? 'no signing key; records are written unsigned. `governor keys init` makes one'}\n`);
  }
  io.stdout(`signers in ${SIGNERS_DIR}/:${signers.signers.length ? '' : ' none'}\n`);
  const width = Math.max(0, ...signers.signers.map((s) => s.name.length));
  for (const s of signers.signers) {
    io.stdout(`  ${s.status.padEnd(7)}  ${s.name.padEnd(width)}  ${s.keyId}  ${s.file}${s.keyId === current.key?.key_id ? '  (this machine)' : ''}\n`);
  }
  for (const p of signers.problems) io.stdout(`  problem  ${p.file}: ${p.problem}\n`);
  return 0;
}

async function trust(root: string, file: string, name: string | undefined, io: CliIO): Promise<number> {
  const stat = await lstat(file).catch(() => undefined);
  if (!stat?.isFile() || stat.size > 16 * 1024) {
    io.stderr(`governor keys trust: ${file} is not a public key file (a .pub file of a few hundred bytes).\n`);
    return 1;
  }
  const signer = name ?? basename(file).replace(/\.pub$/, '');
  const nameProblem = signerNameProblem(signer);
  if (nameProblem) return usageError(io, 'keys', `${nameProblem}; pass --name`);
  return report(await publishSigner(root, signer, await readFile(file, 'utf8')), io, (done) =>
    done.already ? `${done.keyId} is already trusted (${done.file})` : `trusted ${signer} (${done.keyId}): wrote ${done.file}; commit it`,
  );
}

function report(outcome: PublishOutcome, io: CliIO, said: (done: Extract<PublishOutcome, { ok: true }>) => string): number {
  if (!outcome.ok) {
    io.stderr(`governor keys: ${outcome.message}\n`);
    return 1;
  }
  io.stdout(`${said(outcome)}\n`);
  return 0;
}

function safeUser(env: NodeJS.ProcessEnv): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? env.USERNAME ?? 'signer';
  }
}
