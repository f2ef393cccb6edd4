import { INTENT_STATUSES, type IntentStatus } from './intent';

const STATUS_ALIASES: Record<string, IntentStatus> = {
  WIP: 'IN_PROGRESS',
  ACTIVE: 'IN_PROGRESS',
  STARTED: 'IN_PROGRESS',
  DOING: 'IN_PROGRESS',
  ONGOING: 'IN_PROGRESS',
  TODO: 'PLANNED',
  NEW: 'PLANNED',
  OPEN: 'PLANNED',
  BACKLOG: 'PLANNED',
  PLANNING: 'PLANNED',
  COMPLETE: 'DONE',
  COMPLETED: 'DONE',
  FINISHED: 'DONE',
  CLOSED: 'DONE',
  CANCELLED: 'ABANDONED',
  CANCELED: 'ABANDONED',
  DROPPED: 'ABANDONED',
  ON_HOLD: 'BLOCKED',
  WAITING: 'BLOCKED',
  PAUSED: 'BLOCKED',
};

const STATUS_MEANING: Record<IntentStatus, string> = {
  PLANNED: 'work not started',
  IN_PROGRESS: 'work under way',
  BLOCKED: 'work waiting on something',
  DONE: 'finished work',
  ABANDONED: 'work given up',
};

/** Which valid status the user most likely meant by `value`, as advice. */
export function statusHint(value: string): string {
  const key = value.trim().toUpperCase().replace(/[\s-]+/g, '_');
  const suggested = (INTENT_STATUSES as readonly string[]).includes(key) ? (key as IntentStatus) : STATUS_ALIASES[key];
  if (suggested) return `use ${suggested} for ${STATUS_MEANING[suggested]}`;
  return 'use IN_PROGRESS for work under way (the only status that allows writes), PLANNED for work not started';
}
