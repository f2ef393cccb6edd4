import { join } from 'node:path';
import { readRegularFileSync } from '../io/regularFile';

/** Where exporters append their drops and failures (recordExporter.ts), under the governor's home. */
export function telemetryStatsFile(governorHome: string): string {
  return join(governorHome, 'telemetry', 'export-problems.jsonl');
}

export interface TelemetryProblems {
  dropped: number;
  failed: number;
  since?: string;
  lastAt?: string;
  lastError?: string;
}

/** The drops and failures every process reported (the file is cut back at 1 MB, so these are the recent ones). */
export function readTelemetryProblems(governorHome: string): TelemetryProblems {
  const read = readRegularFileSync(telemetryStatsFile(governorHome), { maxBytes: 2 * 1024 * 1024 });
  const total: TelemetryProblems = { dropped: 0, failed: 0 };
  if (!read.ok) return total;
  for (const line of read.bytes.toString('utf8').split('\n')) {
    try {
      const entry = JSON.parse(line) as { at?: string; dropped?: number; failed?: number; last_error?: string };
      total.dropped += Number(entry.dropped) || 0;
      total.failed += Number(entry.failed) || 0;
      total.since ??= entry.at;
      total.lastAt = entry.at;
      if (entry.last_error) total.lastError = entry.last_error;
    } catch {
      // a torn last line: skipped
    }
  }
  return total;
}
