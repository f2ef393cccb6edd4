import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { RelayClient } from '../../core/approvalRelay/relayClient';
import { relayRoutes } from '../../core/approvalRelay/relayRoutes';
import { broadcastSessions } from '../../core/approvalRelay/sessionsBroadcast';
import { WindowApprovalRouter } from '../../core/approvalRelay/windowApprovalRouter';
import type { Governor } from '../../core/governor';
import type { Approver } from '../../core/approval/approver';
import type { Logger } from '../../core/logger';
import { removeOwnResidentEndpoint, writeResidentEndpoint } from '../../core/bridge/residentEndpoint';
import { physicalPath } from '../../core/paths/sameFolder';
import { defaultServersDir, discoveryFilePath, folderKey, readDiscoveryFile, removeOwnDiscoveryFile, writeDiscoveryFile } from '../../core/mcp/discoveryFile';
import { startLocalServer, type LocalServer } from '../../core/localServer/localServer';
import { newBearerToken } from '../../core/localServer/requestGuard';
import type { LocalRoute } from '../../core/localServer/routeTable';
import { MCP_PATH, mcpRoute } from '../../core/mcp/mcpRoute';
import { tryLeaseFolder, type WorkspaceLease } from '../../core/mcp/workspaceLease';
import type { WorkspaceSessions } from '../../core/sessions/workspaceSessions';

const TOKEN_SECRET = 'intentGovernor.mcpToken';
/** Only windows get it (agents get the MCP token): the relay answers approvals. */
const RELAY_KEY_SECRET = 'intentGovernor.relayKey';
const PORT_STATE = 'intentGovernor.mcpPort';
export const MCP_PROVIDER_ID = 'intent-governor.mcp';

/** How long an attaching window waits for the serving window's discovery file before trying the lease again. */
const ATTACH_WAIT_MS = 3_000;
const POLL_MS = 200;
/** Pause after a relay connection ended, growing while it keeps failing, so two windows never spin. */
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 10_000;

export interface McpHostOptions {
  governor: Governor;
  version: string;
  logger: Logger;
  secrets: vscode.SecretStorage;
  state: vscode.Memento;
  workspaceFolders: string[];
  /**
   * The hook bridge's routes (POST /hook from the Node hook, POST /agent-hook from the hook launcher's bash), served
   * beside MCP on the same server, token and guards while this window serves; the launcher finds them through the
   * folder's resident endpoint file, which this window writes while it serves.
   */
  hookRoutes?: LocalRoute[];
  /** Where discovery files and leases live; default ~/.intent-governor/servers. */
  serversDir?: string;
  /** The window's view of the agent sessions: sent to the other windows while serving, mirrored while attached. */
  sessions?: WorkspaceSessions;
}

/** Where agents reach the workspace's governor: this window's server, or the serving window's. */
export interface McpEndpoint {
  port: number;
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  token: string;
}

/** The workspace's MCP endpoint, as the Connect command and tests see it. */
export interface McpHost extends vscode.Disposable {
  /** The current endpoint (the same port and token whichever window serves). */
  readonly server: McpEndpoint;
  /** The folder's one discovery file. */
  readonly discoveryFile: string;
  /** Whether this window serves the folder or is attached to the window that does. */
  role(): 'serving' | 'attached';
  /**
   * Stops advertising (provider, discovery file), then closes the server, which cancels the calls still
   * running and waits until they are recorded, then hands the folder over. Once; `dispose` starts it.
   */
  close(): Promise<void>;
}

interface Serving {
  role: 'serving';
  server: LocalServer;
  lease: WorkspaceLease;
}

interface Attached {
  role: 'attached';
  endpoint: McpEndpoint;
  client?: RelayClient;
}

/**
 * One MCP endpoint per workspace folder, whatever the number of windows: the window holding the folder's
 * lease serves it (MCP, the hook bridge, the approval relay) and announces it in the folder's discovery file;
 * every other window attaches, receives the approvals meant for the human there, and reports its focus. When
 * the serving window closes or reloads, an attached one takes the lease and serves the same port and token.
 */
export async function startMcpHost(options: McpHostOptions): Promise<McpHost> {
  const folder = options.workspaceFolders[0];
  if (folder === undefined) throw new Error('startMcpHost: no workspace folder to serve');
  const dir = options.serversDir ?? defaultServersDir();
  const discoveryFile = discoveryFilePath({ port: 0, workspaceFolders: [folder] }, dir);
  const home = dirname(dir);
  // Hook launchers name the folder as the shell sees it (physical): its endpoint file is written for both spellings.
  const folderSpellings = () => new Set([folder, physicalPath(folder) ?? folder]);
  const windowId = randomBytes(8).toString('hex');
  const portKey = `${PORT_STATE}:${folderKey(folder)}`;
  const logger = options.logger;
  // The approver this window asks its human with (the modal queue); while serving, the router wraps it.
  const localApprover: Approver = options.governor.services.approver;
  const notice = (message: string) => void vscode.window.showInformationMessage(message);

  const sessions = options.sessions;
  const changed = new vscode.EventEmitter<void>();
  let endpoint: McpEndpoint | undefined;
  let mode: Serving | Attached | undefined;
  let router: WindowApprovalRouter | undefined;
  let closed = false;
  let wake: (() => void) | undefined;
  let warnedNoKey = false;

  const announce = (next: McpEndpoint) => {
    const moved = endpoint?.url !== next.url || endpoint?.token !== next.token;
    endpoint = next;
    if (moved) changed.fire();
  };

  const serve = async (lease: WorkspaceLease): Promise<Serving> => {
    const relayKey = await relayKeyOf(options.secrets, true);
    router = new WindowApprovalRouter({ id: windowId, approver: localApprover, notice }, logger);
    router.focus(windowId, vscode.window.state.focused);
    const savedToken = endpoint?.token ?? (await options.secrets.get(TOKEN_SECRET));
    // One local server, every door a route on it: MCP (where the discovery file points), the hook bridge, the relay.
    const routes: LocalRoute[] = [mcpRoute({ governor: options.governor, name: 'intent-governor', version: options.version, logger })];
    routes.push(...(options.hookRoutes ?? []));
    if (relayKey) routes.push(...relayRoutes(router, relayKey, logger, sessions));
    const server = await startLocalServer({
      token: savedToken,
      // The endpoint this window was attached to comes first: agents already hold that port and token.
      port: endpoint?.port ?? options.state.get<number>(portKey) ?? options.state.get<number>(PORT_STATE),
      logger,
      entryPath: MCP_PATH,
      routes,
    });
    if (server.token !== (await options.secrets.get(TOKEN_SECRET))) await options.secrets.store(TOKEN_SECRET, server.token);
    await options.state.update(portKey, server.port);
    options.governor.services.approver = router;
    await writeDiscoveryFile({ port: server.port, token: server.token, pid: process.pid, workspaceFolders: options.workspaceFolders, url: server.url }, dir);
    if (options.hookRoutes?.length) for (const spelling of folderSpellings()) writeResidentEndpoint(home, spelling, { port: server.port, token: server.token, pid: process.pid });
    announce({ port: server.port, url: server.url, token: server.token });
    logger.info(`serving ${folder}: MCP server on ${server.url} (discovery: ${discoveryFile})`);
    return { role: 'serving', server, lease };
  };

  /** The serving window's live entry, waited for a little: it may be starting up right now. */
  const servingEntry = async () => {
    const deadline = Date.now() + ATTACH_WAIT_MS;
    for (;;) {
      const entry = readDiscoveryFile(discoveryFile);
      if (entry && entry.pid !== process.pid) return entry;
      if (closed || Date.now() > deadline) return undefined;
      await delay(POLL_MS);
    }
  };

  const attach = async (): Promise<Attached | undefined> => {
    const entry = await servingEntry();
    if (!entry) return undefined;
    const attached: Attached = { role: 'attached', endpoint: { port: entry.port, url: entry.url, token: entry.token } };
    announce(attached.endpoint);
    const relayKey = await relayKeyOf(options.secrets, false);
    if (!relayKey) {
      // Windows share the key through SecretStorage; a window in another browser profile never sees it.
      if (!warnedNoKey) logger.warn('this window cannot read the relay key the serving window stored (another browser or profile?): approvals are shown in the serving window');
      warnedNoKey = true;
      return attached;
    }
    const client = new RelayClient({
      origin: new URL(entry.url).origin,
      token: entry.token,
      relayKey,
      windowId,
      focused: vscode.window.state.focused,
      approver: localApprover,
      notice,
      // The serving window's sessions and pick show here; actions on them, and a pick made here, go back there.
      sessions: (snapshot) => sessions?.mirror(snapshot, client),
      logger,
    });
    attached.client = client;
    void attached.client.ready.then(() => logger.info(`attached to the window serving ${folder} (pid ${entry.pid}, ${entry.url})`));
    return attached;
  };

  /** One step: serve if the lease is free, else attach; then wait until that ends (the relay closed). */
  const step = async (): Promise<boolean> => {
    const attempt = await tryLeaseFolder(folder, dir);
    if (closed) {
      if (attempt.held) await attempt.lease.release();
      return false;
    }
    if (attempt.held) {
      let serving: Serving;
      try {
        serving = await serve(attempt.lease);
      } catch (error) {
        await attempt.lease.release();
        throw error;
      }
      mode = serving;
      if (closed) await stopServing(serving); // the window closed while the server started
      return true;
    }
    const attached = await attach();
    if (!attached) return false;
    mode = attached;
    return attached.client !== undefined;
  };

  /** Runs for the window's life: after the first step, each end of the relay means the server went away. */
  const supervise = async () => {
    let pause = RETRY_MIN_MS;
    while (!closed) {
      if (mode?.role === 'serving') return;
      const current = mode?.role === 'attached' ? mode : undefined;
      if (current?.client) {
        const why = await current.client.closed;
        mode = undefined;
        if (closed) return;
        logger.info(`the relay to the serving window ended (${why}); taking over if it is gone`);
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, pause);
      });
      if (closed) return;
      const ok = await step().catch((error: unknown) => {
        logger.error(`serving or attaching to ${folder} failed: ${error instanceof Error ? error.message : String(error)}`);
        return false;
      });
      pause = ok ? RETRY_MIN_MS : Math.min(pause * 2, RETRY_MAX_MS);
    }
  };

  const stopServing = async (serving: Serving) => {
    options.governor.services.approver = localApprover;
    try {
      removeOwnDiscoveryFile(discoveryFile);
      for (const spelling of folderSpellings()) removeOwnResidentEndpoint(home, spelling);
    } catch (error) {
      logger.warn(`could not remove the discovery file ${discoveryFile}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await serving.server.close();
    // Last: the next window may bind the same port only once this one has let it go.
    await serving.lease.release();
  };

  await step();
  const running = supervise();

  const stopBroadcast = sessions && broadcastSessions(sessions, () => router, () => mode?.role === 'serving');
  const focus = vscode.window.onDidChangeWindowState((state) => {
    if (mode?.role === 'serving') router?.focus(windowId, state.focused);
    else if (mode?.role === 'attached') mode.client?.reportFocus(state.focused);
  });
  const provider = vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () =>
      endpoint ? [new vscode.McpHttpServerDefinition('Intent Governor', vscode.Uri.parse(endpoint.url), { Authorization: `Bearer ${endpoint.token}` }, options.version)] : [],
  });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      closed = true;
      wake?.();
      stopBroadcast?.();
      focus.dispose();
      provider.dispose();
      changed.dispose();
      const current = mode;
      if (current?.role === 'attached') current.client?.dispose();
      if (current?.role === 'serving') await stopServing(current);
      await running;
    })());
  return {
    get server(): McpEndpoint {
      return endpoint ?? { port: 0, url: '', token: '' };
    },
    discoveryFile,
    role: () => (mode?.role === 'serving' ? 'serving' : 'attached'),
    close,
    dispose() {
      void close();
    },
  };
}

/** The key windows share for the relay; the serving window creates it when none is stored yet. */
async function relayKeyOf(secrets: vscode.SecretStorage, create: boolean): Promise<string | undefined> {
  const stored = await secrets.get(RELAY_KEY_SECRET);
  if (stored || !create) return stored;
  const key = newBearerToken();
  await secrets.store(RELAY_KEY_SECRET, key);
  return key;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

