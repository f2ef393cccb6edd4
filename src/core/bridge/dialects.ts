import { claudeDialect } from './claudeDialect';
import { clineDialect } from './clineDialect';
import { codexDialect } from './codexDialect';
import { copilotDialect } from './copilotDialect';
import { cursorDialect } from './cursorDialect';
import { geminiDialect } from './geminiDialect';
import type { HookDialect } from './hookDialect';
import { opencodeDialect } from './opencodeDialect';
import { vscodeDialect } from './vscodeDialect';

/** Every agent the hook bridge speaks to, by the argument of `governor hook <agent>`. */
export const DIALECTS: Record<string, HookDialect> = { vscode: vscodeDialect, claude: claudeDialect, cursor: cursorDialect, codex: codexDialect, gemini: geminiDialect, copilot: copilotDialect, opencode: opencodeDialect, cline: clineDialect };
