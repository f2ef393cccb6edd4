import type { Logger } from '../logger';
import { parseBridgeRequest } from '../agents/common/nativeCall';
import type { NativeToolBridge } from './nativeToolBridge';

/**
 * POST /hook on the extension's server: a malformed request is a 400, a bridge that throws is a deny (fail closed).
 * `signal` aborts when the hook process hangs up: the bridge then stops waiting for the human and refuses.
 */
export function hookRoute(bridge: NativeToolBridge, logger: Logger): (body: unknown, signal?: AbortSignal) => Promise<{ status: number; body: unknown }> {
  return async (body, signal) => {
    const parsed = parseBridgeRequest(body);
    if (!parsed.ok) return { status: 400, body: { error: `Bad hook request: ${parsed.message}.` } };
    try {
      return { status: 200, body: await bridge.handle(parsed.value, signal) };
    } catch (error) {
      logger.error(`hook bridge failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      return { status: 200, body: { decision: 'deny', reason: 'Intent Governor failed while checking this call, so it is refused (fail closed); see the Intent Governor log.' } };
    }
  };
}
