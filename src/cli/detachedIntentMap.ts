import type * as ChildProcesses from 'node:child_process';
import { requestRebuild, rebuildFiles } from '../core/intentMap/backgroundRebuild';
import { IntentMapKeeper } from '../core/intentMap/intentMapKeeper';
import type { IntentMapUpdates } from '../core/intentMap/intentMapUpdates';
import type { Logger } from '../core/logger';

/** The intent map of a one-shot hook process, which asks once, at its end, if anything was recorded. */
export interface DetachedIntentMap extends IntentMapUpdates {
  /** Hands what was recorded to the background worker (or, with no worker entry, rebuilds here). */
  settle(): Promise<void>;
}

/**
 * `changed` only notes that something was recorded; `settle` asks a detached `node <hook.js> intent-map-job
 * <root>` (see backgroundRebuild.ts) so the agent's answer never waits for a rebuild. Without the hook bundle
 * beside us (a source checkout run through tsx) the map is rebuilt in this process instead.
 */
export function detachedIntentMap(home: string, root: string, entry: string | undefined, logger: Logger): DetachedIntentMap {
  let dirty = false;
  const here = () => new IntentMapKeeper({ workspaceRoot: root, logger });
  return {
    changed() {
      dirty = true;
    },
    refresh: () => here().refresh(),
    async settle() {
      if (!dirty) return;
      dirty = false;
      try {
        if (!entry) {
          const built = await here().refresh();
          if (!built.ok) logger.error(`intent map: ${built.error.message}`);
          return;
        }
        await requestRebuild(rebuildFiles(home, root), () => {
          // Required on use: most hook calls record nothing.
          const { spawn } = require('node:child_process') as typeof ChildProcesses;
          const worker = spawn(process.execPath, [entry, 'intent-map-job', root], { detached: true, stdio: 'ignore' });
          worker.unref();
          return worker.pid;
        });
      } catch (error) {
        // The map is a view of the logs: a failed ask leaves it behind until the next change, never blocks the call.
        logger.error(`intent map: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}
