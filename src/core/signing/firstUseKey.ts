import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import { errnoOf } from '../ioError';
import { defaultKeysDir, FileSigningKeyStore } from './fileSigningKeyStore';
import type { RecordSigner } from './recordSignature';
import { defaultSignerName, generateSigningKey, recordSignerFor, type SigningKey } from './signingKey';
import { REVOKED_DIR, SIGNERS_DIR } from './workspaceSigners';
import { storeIn } from '../paths/userStores';

/**
 * The signer of a CLI door (`governor mcp`, the hook, `check`), signed by default: the key in the user's keys
 * folder, made on the first record this user's governor signs when there is none, and published in the
 * workspace (`.orchestration/signers/<name>.pub`) when it is not yet, so verify knows it. The process that
 * made the key tells the person once where it is and how to trust it elsewhere. `INTENT_GOVERNOR_SIGNING=off`
 * keeps the old behaviour (no key made: records say they are unsigned). A key that cannot be used (readable by
 * others, say) is never replaced: records are unsigned and `governor keys list` says why.
 */
export function doorSigner(root: string, env: NodeJS.ProcessEnv, announce: (text: string) => void = (text) => void process.stderr.write(text)): () => RecordSigner | undefined {
  const dir = defaultKeysDir(env);
  let signer: RecordSigner | null | undefined;
  return () => {
    if (signer === undefined) {
      const store = new FileSigningKeyStore(dir);
      let { key, problem } = store.loadSync();
      let made = false;
      if (!key && !problem && env.INTENT_GOVERNOR_SIGNING !== 'off') {
        try {
          made = store.createIfAbsent(generateSigningKey(defaultSignerName(userName(env), hostname())));
          ({ key, problem } = store.loadSync());
        } catch {
          key = undefined; // the folder cannot be written: unsigned, as before
        }
      }
      let published: string | undefined;
      if (key) {
        try {
          published = publishIfAbsent(root, key);
        } catch {
          // A workspace that cannot take the .pub still gets signed records; `governor keys init` publishes it.
        }
        if (made || published) announce(firstUseMessage(key, store.location, made, published));
      }
      signer = key ? recordSignerFor(key) : null;
    }
    return signer ?? undefined;
  };
}

/**
 * Publishes the key's public half in the workspace unless a .pub there (trusted or revoked) holds it already;
 * returns the workspace-relative file when it wrote one. A name another key took gets `-2`, `-3`, … appended.
 */
export function publishIfAbsent(root: string, key: SigningKey): string | undefined {
  const dir = join(root, SIGNERS_DIR);
  // The usual case, one stat: this key is published under its own name.
  if (existsSync(join(dir, `${key.name}.pub`)) && sameKey(join(dir, `${key.name}.pub`), key)) return undefined;
  for (const folder of [dir, join(root, REVOKED_DIR)]) {
    for (const name of listPub(folder)) if (sameKey(join(folder, name), key)) return undefined;
  }
  mkdirSync(dir, { recursive: true });
  for (let n = 1; n < 100; n += 1) {
    const name = n === 1 ? key.name : `${key.name}-${n}`;
    try {
      writeFileSync(join(dir, `${name}.pub`), key.public_key, { flag: 'wx' });
      return `${SIGNERS_DIR}/${name}.pub`;
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') throw error;
      if (sameKey(join(dir, `${name}.pub`), key)) return undefined; // another process published it just now
    }
  }
  return undefined;
}

function sameKey(file: string, key: SigningKey): boolean {
  try {
    return readFileSync(file, 'utf8').trim() === key.public_key.trim();
  } catch {
    return false;
  }
}

function listPub(folder: string): string[] {
  try {
    return readdirSync(folder).filter((name) => name.endsWith('.pub'));
  } catch {
    return [];
  }
}

function userName(env: NodeJS.ProcessEnv): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? env.USERNAME ?? 'signer';
  }
}

function firstUseMessage(key: SigningKey, location: string, made: boolean, published: string | undefined): string {
  const lines = made
    ? [`Intent Governor: records are signed from now on with your new key ${key.name} (${key.key_id}), kept private in ${location}.`]
    : [`Intent Governor: your signing key ${key.name} (${key.key_id}) was not yet known in this workspace.`];
  if (published) lines.push(`  Its public half is now ${published}: commit it, so \`governor trace verify\` and \`governor check --require-signatures\` trust your records on every clone.`);
  lines.push('  Another machine trusts records you sign once that .pub is in its checkout (or: `governor keys trust <file.pub>`); `governor keys list` shows your key again.');
  return `${lines.join('\n')}\n`;
}

/** Where a process with no person to tell (a hook, the resident governor) leaves the first-use notice. */
function noticeFile(home: string): string {
  return join(storeIn(home, 'keys'), 'first-use-notice.txt');
}

/**
 * The announcer of a door nobody reads directly: an agent's hook shows its stderr to the model or treats it as the
 * refusal, so the notice waits in the governor's home for the next `governor` command a person runs.
 */
export function deferredNotice(home: string): (text: string) => void {
  return (text) => {
    try {
      mkdirSync(storeIn(home, 'keys'), { recursive: true, mode: 0o700 });
      writeFileSync(noticeFile(home), text, { flag: 'a', mode: 0o600 });
    } catch {
      // the key is made and published either way; `governor keys list` shows it
    }
  };
}

/** The notice a hook or the resident left, once (removed as it is read). */
export function takeDeferredNotice(home: string): string | undefined {
  const file = noticeFile(home);
  if (!existsSync(file)) return undefined;
  try {
    const text = readFileSync(file, 'utf8');
    unlinkSync(file);
    return text;
  } catch {
    return undefined;
  }
}
