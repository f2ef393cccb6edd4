import type { ToolDefinition } from '../../core/tools/toolDefinition';
import type { ToolName } from '../../core/tools/toolName';

/** Prefix of every language model tool we contribute; tool names must match /^[\w-]+$/. */
const LM_TOOL_PREFIX = 'intent-governor_';

/** The name VS Code knows a governed tool by, e.g. `intent-governor_write_file`. */
export function lmToolName(tool: ToolName): string {
  return `${LM_TOOL_PREFIX}${tool}`;
}

/** One `contributes.languageModelTools` entry; `scripts/sync-manifest-tools.ts` writes these into package.json. */
export interface LmToolContribution {
  name: string;
  displayName: string;
  toolReferenceName: string;
  canBeReferencedInPrompt: true;
  modelDescription: string;
  userDescription: string;
  tags: string[];
  inputSchema: Record<string, unknown>;
}

/** The manifest entry for a governed tool: same description and input schema as every other door. */
export function lmToolContribution(definition: ToolDefinition): LmToolContribution {
  return {
    name: lmToolName(definition.name),
    displayName: `Intent Governor: ${definition.title}`,
    toolReferenceName: `governor_${definition.name}`,
    canBeReferencedInPrompt: true,
    modelDescription: definition.description,
    userDescription: definition.description,
    tags: ['intent-governor', definition.mutation === 'none' ? 'read' : 'governed-change'],
    inputSchema: definition.inputSchema,
  };
}
