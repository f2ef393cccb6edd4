/**
 * Whether an agent's own shell runs inside the operating-system sandbox: `sandboxed` when its hooks can rewrite
 * the shell tool's input and the agent was seen running the rewrite with its real binary; otherwise the command
 * runs as the agent sent it, judged by its text alone (`text policy`).
 */
export type ShellConfinement = 'sandboxed' | 'text policy';

/** The dialect's side of it: the shell tool's input with its command replaced, or undefined when it cannot be. */
export type ConfineShell = (toolName: string, toolInput: Record<string, unknown>, commandLine: string) => Record<string, unknown> | undefined;

/**
 * `confineShell` for agents whose shell tools carry the command line in one string field: the input as the agent
 * sent it (description, timeout, working folder kept) with that field replaced. Other tools: undefined.
 */
export function replaceCommandField(fields: Readonly<Record<string, string>>): ConfineShell {
  return (toolName, toolInput, commandLine) => {
    const field = Object.hasOwn(fields, toolName) ? fields[toolName] : undefined;
    if (field === undefined || typeof toolInput[field] !== 'string') return undefined;
    return { ...toolInput, [field]: commandLine };
  };
}
