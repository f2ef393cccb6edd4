import { hostname, userInfo } from 'node:os';
import * as vscode from 'vscode';
import { CurrentSigner } from '../../core/signing/currentSigner';
import { defaultKeysDir, FileSigningKeyStore } from '../../core/signing/fileSigningKeyStore';
import { loadPersonalKey } from '../../core/signing/personalKey';
import { setUpSigningKey, type SetupOutcome } from '../../core/signing/signerSetup';
import { defaultSignerName, generateSigningKey, signerNameProblem, type SigningKey } from '../../core/signing/signingKey';
import { publishIfAbsent } from '../../core/signing/firstUseKey';
import { freeSignerName, loadWorkspaceSigners } from '../../core/signing/workspaceSigners';
import { showNoFolderMessage, type GovernedFolder } from '../governedFolder';
import { SecretSigningKeyStore } from './secretSigningKeyStore';

/** The extension's key store and the signer the trace writer asks for on every record. */
export interface ExtensionSigning {
  store: FileSigningKeyStore;
  current: CurrentSigner;
}

/**
 * Reads the person's key on this machine (the governor home's keys/signer.json, the CLI's doors' key too, so every
 * VS Code profile and the CLI sign as one signer), taking over the key an earlier version kept in this profile's
 * secret storage when the file has none. Signed by default: with no key yet (and `root`, the governed folder), one
 * is made at the first change this window governs in a trusted workspace, published in the folder's signers then
 * (opening a folder writes nothing into it), and the person is told once where the key is and how to trust it
 * elsewhere. `INTENT_GOVERNOR_SIGNING=off` in the environment keeps records unsigned; a key that cannot be used is
 * never replaced.
 */
export function createExtensionSigning(secrets: vscode.SecretStorage, log: vscode.LogOutputChannel, root?: string): ExtensionSigning {
  const signing = { store: new FileSigningKeyStore(defaultKeysDir()), current: new CurrentSigner() };
  loadPersonalKey(signing.store, new SecretSigningKeyStore(secrets)).then(
    ({ key, problem, adoptedFrom }) => {
      if (key) signing.current.use(key);
      if (key && adoptedFrom) log.info(`the signing key ${key.name} (${key.key_id}) kept in ${adoptedFrom} is now your key on this machine, in ${signing.store.location}, for every VS Code profile and the governor CLI`);
      if (key) log.info(`signing trace records with ${key.name} (${key.key_id}), kept in ${signing.store.location}`);
      else if (problem) log.warn(`trace records are written unsigned: ${problem}`);
      else if (root !== undefined && process.env.INTENT_GOVERNOR_SIGNING !== 'off') signing.current.makeOnFirstUse(() => makeFirstKey(root, signing, log));
      else log.info('no signing key: trace records are written unsigned (Intent Governor: Initialize Signing Key makes one)');
    },
    (error: unknown) => log.warn(`the signing key could not be read, so trace records are written unsigned: ${String(error)}`),
  );
  return signing;
}

/**
 * The first key, made as the first record is signed, unless another profile or a CLI door made the person's key
 * first (then that one signs): stored, published and announced at once. None in Restricted Mode.
 */
function makeFirstKey(root: string, signing: ExtensionSigning, log: vscode.LogOutputChannel): SigningKey | undefined {
  if (!vscode.workspace.isTrusted) return undefined;
  let made: boolean;
  try {
    made = signing.store.createIfAbsent(generateSigningKey(defaultSignerName(osUser(), hostname())));
  } catch (error) {
    log.warn(`no signing key could be made in ${signing.store.location} (${String(error)}): records are written unsigned`);
    return undefined;
  }
  const { key, problem } = signing.store.loadSync();
  if (!key) {
    log.warn(`trace records are written unsigned: ${problem ?? `${signing.store.location} holds no key`}`);
    return undefined;
  }
  let file: string | undefined;
  try {
    file = publishIfAbsent(root, key);
  } catch (error) {
    log.warn(`the signing key's public half could not be written into ${root} (${String(error)}): Intent Governor: Initialize Signing Key publishes it`);
  }
  log.info(`signing trace records with ${made ? 'a new key' : 'your key'}, ${key.name} (${key.key_id}), kept in ${signing.store.location}${file ? `; public key ${file}` : ''}`);
  if (file) {
    const said =
      `Intent Governor signs every trace record with ${made ? 'a new key' : 'your key'}, ${key.name}, kept in ${signing.store.location} (for every VS Code profile and the governor CLI on this machine). ` +
      `Commit ${file}, so verify trusts your records on every clone; another machine trusts them once that file is in its checkout (or: governor keys trust <file>).`;
    const published = file;
    void vscode.window.showInformationMessage(said, 'Open File').then((open) => {
      if (open) void vscode.window.showTextDocument(vscode.Uri.joinPath(vscode.Uri.file(root), published));
    });
  }
  return key;
}

/**
 * *Initialize Signing Key*: makes the person's key on this machine (the CLI's too) or rotates it, and publishes its
 * public half as `.orchestration/signers/<name>.pub` for the human to commit. Returns what happened.
 */
export function registerSigningKeyCommand(governed: GovernedFolder | undefined, signing: ExtensionSigning | undefined): vscode.Disposable {
  return vscode.commands.registerCommand('intentGovernor.initSigningKey', async (): Promise<SetupOutcome | undefined> => {
    if (!governed || !signing) return showNoFolderMessage();
    const root = governed.services.workspace.root;
    const loaded = await signing.store.load();
    let rotate = false;
    if (loaded.key) {
      const choice = await vscode.window.showInformationMessage(
        `VS Code and the governor CLI sign trace records with your key ${loaded.key.name} (${loaded.key.key_id}).`,
        {
          modal: true,
          detail: 'Publish puts its public key in .orchestration/signers/ of this workspace, if it is not there yet. Rotate makes a new key: the old .pub stays, so the records it signed stay valid.',
        },
        'Publish',
        'Rotate',
      );
      if (!choice) return undefined;
      rotate = choice === 'Rotate';
    } else if (loaded.problem) {
      const choice = await vscode.window.showWarningMessage(`The signing key cannot be used: ${loaded.problem}`, { modal: true }, 'Make a New Key');
      if (!choice) return undefined;
      rotate = true;
    }
    let name: string | undefined;
    if (!loaded.key || rotate) {
      const signers = await loadWorkspaceSigners(root);
      const suggested = freeSignerName(signers, defaultSignerName(osUser(), hostname()), loaded.key ? [loaded.key.name] : []);
      name = await vscode.window.showInputBox({
        title: 'Intent Governor: name this signer',
        prompt: 'Its public key is published as .orchestration/signers/<name>.pub, and verify names it beside every record it signed.',
        value: suggested,
        validateInput: (value) => signerNameProblem(value),
      });
      if (name === undefined) return undefined;
    }
    const outcome = await setUpSigningKey(root, signing.store, { name, rotate, defaultName: name ?? 'signer' });
    if (outcome.kind === 'refused') {
      void vscode.window.showErrorMessage(`No signing key was made: ${outcome.message}`);
      return outcome;
    }
    signing.current.use(outcome.key);
    const file = outcome.kind === 'created' ? outcome.file : outcome.published.file;
    governed.log.info(`signing trace records with ${outcome.key.name} (${outcome.key.key_id}); public key ${file}`);
    const said = outcome.kind === 'created'
      ? `Signing key ${outcome.key.name} created: records from this window are signed. Commit ${file}, so verify trusts it.`
      : `${outcome.key.name} is published as ${file}. Commit it, so verify trusts it.`;
    void vscode.window.showInformationMessage(said, 'Open File').then((open) => {
      if (open) void vscode.window.showTextDocument(vscode.Uri.joinPath(governed.folder.uri, file));
    });
    return outcome;
  });
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'signer';
  }
}
