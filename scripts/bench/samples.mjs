// What every benchmark does with its measurements: the samples and errors of each measured path,
// their percentiles, and the report of a path with no successful sample. Such a path is named
// FAILED with its first error, and the process exits non-zero, instead of a figure read from
// nothing (bench:gateway once crashed on `undefined.toFixed` that way, hiding the error).

/** The `p`th percentile of ascending `sorted` (nearest rank); NaN when there are none. */
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** `value` with `digits` decimals, or '-' when there is no figure (no samples: NaN). */
export function fixed(value, digits = 2) {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

/** One measured path: its successful samples (a number each), its errors and the first one. */
export class Samples {
  values = [];
  errors = 0;
  firstError = undefined;
  #sorted = undefined;

  /** Several measurements of one path as one: their samples and errors pooled. */
  static pooled(list) {
    const all = new Samples();
    for (const samples of list) {
      all.values = all.values.concat(samples.values);
      all.errors += samples.errors;
      all.firstError ??= samples.firstError;
    }
    return all;
  }

  add(value) {
    this.values.push(value);
    this.#sorted = undefined;
  }

  fail(error) {
    this.errors += 1;
    this.firstError ??= error instanceof Error ? error.message : String(error);
  }

  get count() {
    return this.values.length;
  }

  /** The `p`th percentile of the samples (NaN when there are none). */
  percentile(p) {
    this.#sorted ??= this.values.toSorted((a, b) => a - b);
    return percentile(this.#sorted, p);
  }
}

/**
 * Says, after the figures, which paths failed: each `[name, samples]` with no successful sample
 * as FAILED with its first error (and the exit code then 1), and each with some errors, how many
 * and the first. Answers whether every path had a successful sample.
 */
export function reportFailures(paths) {
  let passed = true;
  for (const [name, samples] of paths) {
    const first = samples.firstError ?? '(no error recorded)';
    if (samples.count === 0) {
      passed = false;
      process.stderr.write(
        `FAILED ${name}: no successful sample (${samples.errors} errors); first error: ${first}\n`,
      );
    } else if (samples.errors > 0) {
      process.stderr.write(
        `${name}: ${samples.errors} errors beside ${samples.count} samples; first error: ${first}\n`,
      );
    }
  }
  if (!passed) process.exitCode = 1;
  return passed;
}
