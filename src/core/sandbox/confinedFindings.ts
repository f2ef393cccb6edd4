import type { CommandAnalysis } from '../commands/commandPolicy';

/**
 * Findings of the text policy that only say where a command writes. Inside the sandbox the kernel decides that
 * (only the intent's scope is writable), so a command whose every finding is one of these needs no human. Matched
 * by the sentence the policy writes after `<command>: `; a sentence that changes stops matching and the command
 * asks again (fail closed). Deleting, moving, signalling, network and unreviewed code are not here: they ask.
 */
const WRITE_ONLY_FINDINGS: readonly RegExp[] = [
  / \((>|>>|&>|&>>|>\||<>|>&)\)$/, // writes to X (>): a redirect
  /, a path only known at run time$/,
  /, so where .+ lands cannot be checked against the scope$/,
  /: (copies files, overwriting the destination|creates links|installs files|creates files or changes their timestamps|creates directories|cuts files to a size|writes its input to files|changes file permissions)$/,
  /: (edits files in place|edits files in place with perl|has a sed script that writes files \(w\))$/,
  /: (writes its output to a file|writes its report to a file|writes the diff to a file|writes output to a chosen path|writes compiled output to a chosen path|writes diagnostics to a chosen path|writes reports or temporary files where it is told)$/,
  /: (rewrites source files \(--fix\)|rewrites source files \(--write\)|reformats source files|writes compiled bytecode next to the sources \(__pycache__\)|writes compiled bytecode into __pycache__ folders)$/,
  /: (extracts files|writes an archive)$/,
];

export function isWriteOnlyFinding(reason: string): boolean {
  return WRITE_ONLY_FINDINGS.some((pattern) => pattern.test(reason));
}

/** Findings that still need a human when the command runs confined (empty: the kernel covers everything found). */
export function findingsBeyondConfinement(analysis: CommandAnalysis): string[] {
  return analysis.reasons.filter((reason) => !isWriteOnlyFinding(reason));
}

/** The command changes files at all (so `every-change` asks, as it does for write_file). */
export function commandWrites(analysis: CommandAnalysis): boolean {
  return analysis.writeTargets.length > 0 || analysis.dynamicWriteTargets || analysis.reasons.some(isWriteOnlyFinding);
}
