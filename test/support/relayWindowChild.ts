// Child process playing a VS Code window attached to the serving window's approval relay.
//   <origin> <token> <relay key> <window id> <approve|session|reject|hold> [unfocused]
// Prints "ready" once attached, "asked <title>" for each request, "notice <text>", "cancelled <title>" when a
// request is withdrawn, "closed <why>" when the relay ends. `hold` never answers (a human who is away).
import type { ApprovalDecision, ApprovalRequest, ApproveOptions, Approver } from '../../src/core/approval/approver';
import { cancelledDecision } from '../../src/core/approval/cancellation';
import { RelayClient } from '../../src/core/approvalRelay/relayClient';

const [origin, token, relayKey, windowId, mode, focus] = process.argv.slice(2);
const say = (line: string) => process.stdout.write(`${line}\n`);

const approver: Approver = {
  interactive: true,
  approve(request: ApprovalRequest, options: ApproveOptions = {}): Promise<ApprovalDecision> {
    say(`asked ${request.title}`);
    return new Promise((resolve) => {
      options.signal?.addEventListener('abort', () => {
        say(`cancelled ${request.title}`);
        resolve(cancelledDecision(request.tool));
      });
      if (mode === 'approve') resolve({ approved: true, approver: `modal:${windowId}` });
      if (mode === 'session') resolve({ approved: true, approver: `modal:${windowId}`, for_session: true });
      if (mode === 'reject') resolve({ approved: false, approver: `modal:${windowId}`, reason: 'rejected in the approval dialog' });
    });
  },
};

const client = new RelayClient({ origin, token, relayKey, windowId, focused: focus !== 'unfocused', approver, notice: (m) => say(`notice ${m}`), logger: { info() {}, warn: (m) => process.stderr.write(`${m}\n`), error: (m) => process.stderr.write(`${m}\n`) } });
void client.ready.then(() => say('ready'));
void client.closed.then((why) => say(`closed ${why}`));
