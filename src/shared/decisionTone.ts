// How a timeline row's decision reads at a glance: a tone (its colour and icon in the webview) and the words a
// screen reader says for that icon. Pure, so the mapping is tested in Node and the webview only draws it.
import type { InspectorRow } from './inspectorProtocol';

/** `refused`: the governor or a person said no; `failed`: the call errored; `asked`: a person was asked. */
export type DecisionTone = 'refused' | 'failed' | 'asked' | 'voided' | 'policy' | 'approved' | 'allowed' | 'none';

export interface DecisionLook {
  tone: DecisionTone;
  /** What the icon means, in words (its accessible name and tooltip). */
  label: string;
}

const GOVERNANCE: Record<string, DecisionLook> = {
  deny: { tone: 'refused', label: 'Refused by the governor' },
  reject: { tone: 'refused', label: 'Rejected by a person' },
  error: { tone: 'failed', label: 'Failed' },
  ask: { tone: 'asked', label: 'Asked a person' },
  void: { tone: 'voided', label: 'Did not land' },
  allow: { tone: 'policy', label: 'Let run by policy, unseen' },
};

const CHANGE: Record<string, DecisionLook> = {
  approved: { tone: 'approved', label: 'Approved by a person' },
  allow: { tone: 'allowed', label: 'Allowed' },
};

/**
 * The look of a row's decision. A governance record with a decision this build does not know reads as a
 * refusal: it is in the log of calls that did not simply pass, so it must not look like an approval.
 */
export function decisionLook(row: Pick<InspectorRow, 'source' | 'decision'>): DecisionLook {
  if (row.source === 'governance') return GOVERNANCE[row.decision] ?? { tone: 'refused', label: `Refused (${row.decision || 'no decision'})` };
  return CHANGE[row.decision] ?? { tone: 'none', label: row.decision || 'No decision' };
}
