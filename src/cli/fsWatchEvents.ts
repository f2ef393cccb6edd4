import { watch } from 'node:fs';
import { sep } from 'node:path';
import type { FileEventSource } from '../core/watch/ungovernedWatcher';

/**
 * The file-event port over Node's recursive `fs.watch` (inotify per folder on Linux, FSEvents on macOS). An event
 * without a file name (an overflow) names the workspace root itself: the watcher then cannot say what changed.
 * INTENT_GOVERNOR_WATCH=fail makes every start fail, so the fail-closed path can be exercised.
 */
export function fsWatchEvents(env: NodeJS.ProcessEnv): FileEventSource {
  return {
    watch(root, onPath, onError) {
      if (env.INTENT_GOVERNOR_WATCH === 'fail') throw new Error('INTENT_GOVERNOR_WATCH=fail: the watcher is made to fail');
      const watcher = watch(root, { recursive: true, persistent: false }, (_event, name) => {
        if (name === null) return onError(new Error('the file-event queue overflowed: changes may have gone unseen'));
        onPath(String(name).split(sep).join('/'));
      });
      watcher.on('error', onError);
      return { close: () => watcher.close() };
    },
  };
}
