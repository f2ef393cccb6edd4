import type { LineCounter } from 'yaml';
import type { IntentsFileProblem } from './intent';

/** Problems reported at once; past this the user is better served fixing the first ones and reloading. */
export const MAX_PROBLEMS = 50;

/** Collects problems at source offsets, capped at MAX_PROBLEMS, and hands them back in file order. */
export class ProblemList {
  private readonly items: IntentsFileProblem[] = [];
  private omitted = 0;
  constructor(
    private readonly file: string,
    private readonly lineCounter: LineCounter,
  ) {}

  get count(): number {
    return this.items.length + this.omitted;
  }

  add(offset: number, message: string): void {
    if (this.items.length >= MAX_PROBLEMS) {
      this.omitted++;
      return;
    }
    this.items.push({ file: this.file, ...this.position(offset), message });
  }

  position(offset: number): { line: number; column: number } {
    const { line, col } = this.lineCounter.linePos(offset);
    return { line, column: col };
  }

  /** Problems in file order, which is how the user will fix them. */
  finish(): IntentsFileProblem[] {
    this.items.sort((a, b) => a.line - b.line || a.column - b.column);
    if (this.omitted === 0) return this.items;
    // The last slot tells the user there is more, rather than silently dropping problems.
    const last = this.items[this.items.length - 1];
    const note = `(and ${this.omitted} more problems after this one; fix these and reload)`;
    return [...this.items.slice(0, -1), { ...last, message: `${last.message} ${note}` }];
  }
}
