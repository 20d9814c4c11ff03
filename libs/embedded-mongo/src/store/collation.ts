import type { Document } from 'bson';
import { CommandError } from '../errors.js';
import { compareValues } from './values.js';

/**
 * A command's `collation` (https://www.mongodb.com/docs/manual/reference/collation/): string
 * comparison by a locale's rules, as ICU (through `Intl.Collator`) gives it. Strength 1 ignores
 * case and accents, 2 case only, 3 (the default) neither.
 */
export interface CollationSpec {
  readonly locale: string;
  readonly strength: 1 | 2 | 3;
  readonly caseLevel: boolean;
  readonly caseFirst: 'upper' | 'lower' | 'off';
  readonly numericOrdering: boolean;
}

const FIELDS: Readonly<Record<string, 'string' | 'number' | 'boolean'>> = {
  locale: 'string',
  caseLevel: 'boolean',
  caseFirst: 'string',
  strength: 'number',
  numericOrdering: 'boolean',
  alternate: 'string',
  maxVariable: 'string',
  backwards: 'boolean',
  normalization: 'boolean',
  version: 'string',
};

function unsupported(command: string, what: string): CommandError {
  return new CommandError(
    'NotImplemented',
    `${command}: the embedded store does not support ${what} in a collation (it would not ` +
      'answer as MongoDB does); run a MongoDB server for it',
  );
}

/**
 * Reads a command's `collation` as MongoDB validates it. Undefined for none or for the
 * `simple` locale (binary comparison, the default); a refusal for what Intl.Collator cannot
 * give as ICU would (strength 4 and 5, `alternate: 'shifted'`, `backwards`).
 */
export function parseCollation(value: unknown, command: string): Collation | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${command}.collation' is the wrong type, expected object`,
    );
  }
  const spec = value as Document;
  for (const [field, given] of Object.entries(spec)) {
    const type = FIELDS[field];
    if (!type) {
      throw new CommandError(
        'IDLUnknownField',
        `BSON field 'collation.${field}' is an unknown field.`,
      );
    }
    if (typeof given !== type) {
      throw new CommandError(
        'TypeMismatch',
        `BSON field 'collation.${field}' is the wrong type, expected ${type}`,
      );
    }
  }
  const locale: unknown = spec['locale'];
  if (typeof locale !== 'string') {
    throw new CommandError(
      'Location40414',
      "BSON field 'collation.locale' is missing but a required field",
    );
  }
  if (locale === 'simple') {
    if (Object.keys(spec).length > 1) {
      throw new CommandError(
        'BadValue',
        "If 'locale' is set to 'simple', no other fields may be set in the collation",
      );
    }
    return undefined;
  }
  const tag = locale.replace(/_/g, '-').replace(/@collation=(\w+)/, '-u-co-$1');
  let supported: string[];
  try {
    supported = Intl.Collator.supportedLocalesOf([tag]);
  } catch {
    supported = [];
  }
  if (supported.length === 0 || locale === '') {
    throw new CommandError('BadValue', `Field 'locale' is invalid in: { locale: "${locale}" }`);
  }
  const strength = spec['strength'] === undefined ? 3 : Number(spec['strength']);
  if (!Number.isInteger(strength) || strength < 1 || strength > 5) {
    throw new CommandError(
      'BadValue',
      `Field 'strength' must be an integer 1 through 5. Got: ${String(spec['strength'])}`,
    );
  }
  if (strength > 3) throw unsupported(command, `strength ${strength}`);
  const caseFirst = spec['caseFirst'] ?? 'off';
  if (!['upper', 'lower', 'off'].includes(caseFirst as string)) {
    throw new CommandError(
      'BadValue',
      `Field 'caseFirst' must be 'upper', 'lower' or 'off'. Got: ${String(caseFirst)}`,
    );
  }
  const alternate = spec['alternate'] ?? 'non-ignorable';
  if (!['non-ignorable', 'shifted'].includes(alternate as string)) {
    throw new CommandError(
      'BadValue',
      `Field 'alternate' must be 'non-ignorable' or 'shifted'. Got: ${String(alternate)}`,
    );
  }
  if (alternate === 'shifted') throw unsupported(command, "alternate: 'shifted'");
  const maxVariable = spec['maxVariable'] ?? 'punct';
  if (!['punct', 'space'].includes(maxVariable as string)) {
    throw new CommandError(
      'BadValue',
      `Field 'maxVariable' must be 'punct' or 'space'. Got: ${String(maxVariable)}`,
    );
  }
  if (spec['backwards'] === true) throw unsupported(command, 'backwards: true');
  return new Collation({
    locale: supported[0] as string,
    strength: strength as 1 | 2 | 3,
    caseLevel: spec['caseLevel'] === true,
    caseFirst: caseFirst as CollationSpec['caseFirst'],
    numericOrdering: spec['numericOrdering'] === true,
  });
}

/** Compares values in MongoDB's order, strings (also inside arrays and documents) by a locale. */
export class Collation {
  private readonly collator: Intl.Collator;
  private readonly strings = (a: string, b: string): number =>
    Math.sign(this.collator.compare(a, b));

  constructor(spec: CollationSpec) {
    const sensitivity = ({ 1: 'base', 2: 'accent', 3: 'variant' } as const)[spec.strength];
    this.collator = new Intl.Collator(spec.locale, {
      usage: 'sort',
      sensitivity:
        spec.caseLevel && sensitivity === 'base'
          ? 'case'
          : spec.caseLevel && sensitivity === 'accent'
            ? 'variant'
            : sensitivity,
      caseFirst: spec.caseFirst === 'off' ? 'false' : spec.caseFirst,
      numeric: spec.numericOrdering,
    });
  }

  compare(a: unknown, b: unknown): number {
    return compareValues(a, b, this.strings);
  }

  equals(a: unknown, b: unknown): boolean {
    return this.compare(a, b) === 0;
  }
}
