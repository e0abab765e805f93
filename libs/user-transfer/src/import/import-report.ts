import type { FieldErrors } from '@gatehouse/problem-details';

export interface ImportReport {
  counts: {
    created: number;
    updated: number;
    skipped: number;
    conflicts: number;
    rejected: number;
  };
  /** Lines imported with a weak hash (upgraded at their first sign-in). */
  weak_hashes: number;
  /** Update lines that would have changed the email, username, password, MFA or identities of a user who had signed in or changed credentials here, and did not. */
  credentials_kept: number;
  errors: { line: number; type: string; detail: string; errors?: FieldErrors }[];
}

/** Counts a refused line and lists it. */
export type RefuseLine = (line: number, type: string, detail: string, errors?: FieldErrors) => void;

/** The report lists the first this many refused lines (the counts count them all). */
const MAX_REPORTED_ERRORS = 1000;

export function emptyReport(): ImportReport {
  return {
    counts: { created: 0, updated: 0, skipped: 0, conflicts: 0, rejected: 0 },
    weak_hashes: 0,
    credentials_kept: 0,
    errors: [],
  };
}

/** Counts a refused line in `report` and lists it (the first MAX_REPORTED_ERRORS). */
export function refuseIn(report: ImportReport): RefuseLine {
  return (line, type, detail, errors) => {
    if (type === 'conflict') report.counts.conflicts += 1;
    else report.counts.rejected += 1;
    if (report.errors.length < MAX_REPORTED_ERRORS)
      report.errors.push({ line, type, detail, ...(errors ? { errors } : {}) });
  };
}

/** A committed batch's outcomes added to the import's report. */
export function mergeReport(report: ImportReport, part: ImportReport): void {
  for (const key of Object.keys(part.counts) as (keyof ImportReport['counts'])[])
    report.counts[key] += part.counts[key];
  report.weak_hashes += part.weak_hashes;
  report.credentials_kept += part.credentials_kept;
  for (const e of part.errors)
    if (report.errors.length < MAX_REPORTED_ERRORS) report.errors.push(e);
}
