import { claudeDialect } from './claude/claudeDialect';
import { clineDialect } from './cline/clineDialect';
import { codexDialect } from './codex/codexDialect';
import { copilotDialect } from './copilot/copilotDialect';
import { cursorDialect } from './cursor/cursorDialect';
import { geminiDialect } from './gemini/geminiDialect';
import type { HookDialect } from './common/hookDialect';
import { opencodeDialect } from './opencode/opencodeDialect';
import { vscodeDialect } from './vscode/vscodeDialect';

/** Every agent the hook bridge speaks to, by the argument of `governor hook <agent>`. */
export const DIALECTS: Record<string, HookDialect> = { vscode: vscodeDialect, claude: claudeDialect, cursor: cursorDialect, codex: codexDialect, gemini: geminiDialect, copilot: copilotDialect, opencode: opencodeDialect, cline: clineDialect };
