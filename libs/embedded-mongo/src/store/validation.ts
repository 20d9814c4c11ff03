import type { Document } from 'bson';
import type { Query } from 'mingo/query';
import { CommandError } from '../errors.js';
import { queryOf } from './matching.js';
import { isPlainObject } from './values.js';

/** Query operators MongoDB does not allow in a validator. */
const NOT_IN_VALIDATORS = new Set(['$where', '$near', '$nearSphere', '$text']);

function operatorsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(operatorsIn);
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    ...(key.startsWith('$') ? [key] : []),
    ...operatorsIn(inner),
  ]);
}

type ValidationLevel = 'off' | 'strict' | 'moderate';
type ValidationAction = 'error' | 'warn';

/** A collection's validation options, as `create` and `collMod` set them and listCollections shows. */
export interface ValidationOptions {
  readonly validator?: Document;
  readonly validationLevel?: ValidationLevel;
  readonly validationAction?: ValidationAction;
}

/** Reads the validation options of a `create` or a `collMod`, refusing what MongoDB refuses. */
export function parseValidationOptions(body: Document, command: string): ValidationOptions {
  const options: { -readonly [K in keyof ValidationOptions]: ValidationOptions[K] } = {};
  const validator: unknown = body['validator'];
  if (validator !== undefined) {
    if (!isPlainObject(validator)) {
      throw new CommandError(
        'TypeMismatch',
        `BSON field '${command}.validator' is the wrong type, expected object`,
      );
    }
    const refused = operatorsIn(validator).find((operator) => NOT_IN_VALIDATORS.has(operator));
    if (refused) {
      throw new CommandError('QueryFeatureNotAllowed', `${refused} is not allowed in this context`);
    }
    // Compiled now, so that a validator that cannot be used is refused and nothing is created.
    compileValidator(validator);
    options.validator = validator;
  }
  const level: unknown = body['validationLevel'];
  if (level !== undefined) {
    if (level !== 'off' && level !== 'strict' && level !== 'moderate') {
      throw new CommandError(
        'BadValue',
        `Enumeration value '${String(level)}' for field '${command}.validationLevel' is not a valid value.`,
      );
    }
    options.validationLevel = level;
  }
  const action: unknown = body['validationAction'];
  if (action !== undefined) {
    if (action !== 'error' && action !== 'warn') {
      throw new CommandError(
        'BadValue',
        `Enumeration value '${String(action)}' for field '${command}.validationAction' is not a valid value.`,
      );
    }
    options.validationAction = action;
  }
  return options;
}

function compileValidator(validator: Document): Query {
  try {
    return queryOf(validator);
  } catch (error) {
    if (error instanceof CommandError) throw error;
    throw new CommandError('BadValue', (error as Error).message);
  }
}

/**
 * A collection's validation: every insert, and every update of a document (under 'moderate',
 * only of a document that was valid before), must match the validator, or the write fails with
 * 121 DocumentValidationFailure and changes nothing; under 'warn' it is written and logged.
 */
export class Validation {
  private readonly query: Query | undefined;

  constructor(readonly options: ValidationOptions) {
    this.query = options.validator ? compileValidator(options.validator) : undefined;
  }

  /** Throws when `next` may not be written (`previous`: the version it replaces, if any). */
  check(next: Document, previous?: Document): void {
    if (!this.query || this.options.validationLevel === 'off') return;
    if (this.query.test(next)) return;
    if (previous && this.options.validationLevel === 'moderate' && !this.query.test(previous)) {
      return;
    }
    if (this.options.validationAction === 'warn') {
      process.emitWarning(
        `Document would fail validation (validationAction 'warn'): _id ${String(next['_id'])}`,
        'DocumentValidationWarning',
      );
      return;
    }
    throw new CommandError('DocumentValidationFailure', 'Document failed validation', {
      errInfo: {
        failingDocumentId: next['_id'] as unknown,
        details: { operatorName: '$and', specifiedAs: this.options.validator },
      },
    });
  }
}
