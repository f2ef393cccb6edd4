import { HOOK_PATH, parseBridgeRequest } from '../agents/common/nativeCall';
import type { LocalRoute } from '../localServer/routeTable';
import { MAX_REQUEST_BODY_BYTES } from '../tools/requestBodyCap';
import type { NativeToolBridge } from './nativeToolBridge';
import { routedIdentityProblem } from './routedIdentity';

/** What the hook answers when the governor failed while judging its call. */
const FAIL_CLOSED = { decision: 'deny', reason: 'Intent Governor failed while checking this call, so it is refused (fail closed); see the Intent Governor log.' };

/**
 * POST /hook on the local server (the hook bridge): a malformed request is a 400 (so is one that does not speak as an
 * agent door would, routedIdentity.ts), a bridge that throws is a deny
 * (fail closed; the server logs the error). Its body cap is the one for governed calls: a native write of the
 * largest content the tools take gets in. The request's signal aborts when the hook process hangs up: the bridge
 * then stops waiting for the human and refuses, and no answer is written.
 */
export function hookRoute(bridge: Pick<NativeToolBridge, 'handle'>): LocalRoute {
  return {
    path: HOOK_PATH,
    methods: ['POST'],
    maxBodyBytes: MAX_REQUEST_BODY_BYTES,
    async handle({ body, signal }) {
      const parsed = parseBridgeRequest(body);
      if (!parsed.ok) return { status: 400, body: { error: `Bad hook request: ${parsed.message}.` } };
      const identity = routedIdentityProblem(parsed.value);
      if (identity) return { status: 400, body: { error: `Bad hook request: ${identity}.` } };
      return { status: 200, body: await bridge.handle(parsed.value, signal) };
    },
    failure: () => ({ status: 200, body: FAIL_CLOSED }),
  };
}
