import { ensureOrchestrationGitFiles, orchestrationGitProblems } from '../../trace/orchestrationGitFiles';
import type { DoctorCheck } from './doctorReport';

/**
 * Sets up how git treats the logs (merge marks, ignored scratch files) and says what git would still do wrong: a
 * warning, not a failure, since nothing is let through by it, but a team's merges conflict until it is fixed.
 */
export async function gitSetupCheck(workspace: string): Promise<DoctorCheck> {
  const base = { id: 'git-setup', title: 'Logs in git' };
  let wrote: string[];
  try {
    wrote = (await ensureOrchestrationGitFiles(workspace)).written;
  } catch (error) {
    return { ...base, verdict: 'warning', detail: `cannot write the git files of .orchestration/ (${error instanceof Error ? error.message : String(error)})`, fix: 'make .orchestration/ writable and run `governor doctor` again' };
  }
  const problems = await orchestrationGitProblems(workspace);
  const written = wrote.length ? `wrote ${wrote.join(' and ')}: commit ${wrote.length > 1 ? 'them' : 'it'}` : '';
  if (problems.length === 0) return { ...base, verdict: 'ok', detail: written || 'both logs merge as a union with LF line ends; scratch files are ignored' };
  return {
    ...base,
    verdict: 'warning',
    detail: [written, ...problems.map((p) => p.problem)].filter(Boolean).join('; '),
    fix: problems.map((p) => p.fix).join('; '),
  };
}
