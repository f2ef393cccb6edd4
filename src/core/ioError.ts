import { toolError, type ToolError } from './toolError';

/**
 * A file-system failure (EACCES, ENOSPC, EISDIR…) reported as a value. It is not a policy decision, so it
 * uses HOOK_ERROR (the code for "the governor could not complete the call") with `meta.errno` telling
 * it apart, rather than widening the ErrorCode union that agents are taught.
 */
export function ioToolError(error: unknown, action: string, path: string): ToolError {
  const errno = errnoOf(error) ?? 'UNKNOWN';
  const detail = error instanceof Error ? error.message : String(error);
  return toolError(
    'HOOK_ERROR',
    `Could not ${action} ${path}: ${errno}. This is a file system error, not a policy decision; ` +
      `tell the human (permissions, disk space, a directory in the way) and retry once it is fixed.`,
    { errno, path, io_error: true, detail },
  );
}

/** The `code` of a Node system error (`'ENOENT'`), if it is one. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
