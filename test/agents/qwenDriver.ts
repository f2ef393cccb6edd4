import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finishedWithin, type Finished } from '../support/childProcesses';
import { agentCommand, provisionedAgent } from './claudeCodeDriver';

/** The model every run asks for (the scripted server answers any name). */
export const QWEN_MODEL = 'scripted-model';

/** The pinned Qwen Code (scripts/agents/qwen-code.mjs). */
export function provisionedQwen(): string {
  return provisionedAgent('qwen-code');
}

/** One tool result as Qwen Code reports it in its --output-format json transcript: the error flag the model's API does not carry. */
export interface QwenToolResult {
  tool_use_id: string;
  is_error: boolean;
  content: string;
  /** The tool call that ran inside a subagent: the agent tool call's id. */
  parent_tool_use_id: string | null;
}

export interface QwenRun extends Finished {
  /** Qwen Code's --output-format json messages (system init, assistant, user tool results, result), when it printed them. */
  messages?: Record<string, unknown>[];
  toolResults: QwenToolResult[];
}

function toolResults(messages: Record<string, unknown>[] | undefined): QwenToolResult[] {
  const out: QwenToolResult[] = [];
  for (const message of messages ?? []) {
    if (message.type !== 'user') continue;
    const content = (message.message as { content?: unknown } | undefined)?.content;
    for (const part of Array.isArray(content) ? content : []) {
      if (part?.type !== 'tool_result') continue;
      const text = typeof part.content === 'string' ? part.content : JSON.stringify(part.content);
      out.push({ tool_use_id: String(part.tool_use_id), is_error: part.is_error === true, content: text, parent_tool_use_id: (message.parent_tool_use_id as string | null) ?? null });
    }
  }
  return out;
}

/**
 * Runs `qwen -p` headless against the scripted Chat Completions server: a private HOME whose ~/.qwen/settings.json
 * picks OpenAI-compatible auth (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL point it at the scripted server) and
 * switches off usage statistics, telemetry, update checks and the managed memory subagents (each would be a model
 * request with tools of its own). Folder trust is off by default, so the project's .qwen/settings.json hooks run.
 * `--yolo`: its own approvals never ask, so what is refused is refused by the hooks.
 */
export async function runQwen(options: {
  binary: string;
  cwd: string;
  modelUrl: string;
  home: string;
  env?: NodeJS.ProcessEnv;
  /** Merged into ~/.qwen/settings.json (e.g. `mcpServers`). */
  settings?: Record<string, unknown>;
  prompt?: string;
}): Promise<QwenRun> {
  const dir = join(options.home, '.qwen');
  mkdirSync(dir, { recursive: true });
  const settings = {
    security: { auth: { selectedType: 'openai' } },
    model: { name: QWEN_MODEL },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false },
    memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
    ...options.settings,
  };
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: options.home,
    OPENAI_API_KEY: 'scripted',
    OPENAI_BASE_URL: `${options.modelUrl}/v1`,
    OPENAI_MODEL: QWEN_MODEL,
    QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    ...options.env,
  };
  const [command, args] = agentCommand(options.binary, ['-p', options.prompt ?? 'Do the scripted task.', '--output-format', 'json', '--yolo']);
  const child = spawn(command, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const finished: Finished = await finishedWithin(child, 90_000);
  let messages: Record<string, unknown>[] | undefined;
  try {
    const parsed = JSON.parse(finished.stdout) as unknown;
    messages = Array.isArray(parsed) ? (parsed as Record<string, unknown>[]) : undefined;
  } catch {
    messages = undefined;
  }
  return { ...finished, messages, toolResults: toolResults(messages) };
}
