/**
 * When a human is asked before a change. `every-change`: before every write and edit too (seed 003's sequence;
 * "Approve for this Session" keeps it bearable). `destructive-only`: only before deletes, destructive commands and
 * scope expansions.
 */
export const APPROVAL_MODES = ['every-change', 'destructive-only'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

export function isApprovalMode(value: unknown): value is ApprovalMode {
  return typeof value === 'string' && (APPROVAL_MODES as readonly string[]).includes(value);
}
