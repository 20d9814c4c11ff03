import type { Document } from 'bson';

/** MongoDB's error codes this server answers with (names as MongoDB spells them). */
const ErrorCode = {
  BadValue: 2,
  FailedToParse: 9,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  CursorNotFound: 43,
  NamespaceExists: 48,
  CommandNotFound: 59,
  ImmutableField: 66,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  NotImplemented: 238,
  DuplicateKey: 11000,
  BSONObjectTooLarge: 10334,
  UnrecognizedPipelineStage: 40324,
  TypeMismatch: 14,
  InvalidIdField: 53,
  IDLUnknownField: 40415,
  Location17276: 17276,
  Location40414: 40414,
  DocumentValidationFailure: 121,
  QueryFeatureNotAllowed: 224,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;

/**
 * An error mingo raised while evaluating, as MongoDB would name it: an undefined `$$variable`
 * is 17276; anything else `fallback`.
 */
export function evaluationError(error: unknown, fallback: ErrorCodeName): CommandError {
  const message = error instanceof Error ? error.message : String(error);
  return new CommandError(
    /^Use of undefined variable/.test(message) ? 'Location17276' : fallback,
    message,
  );
}

/** An error that reaches the client in MongoDB's own shape: `{ ok: 0, errmsg, code, codeName }`. */
export class CommandError extends Error {
  constructor(
    readonly codeName: ErrorCodeName,
    message: string,
    readonly extra: Document = {},
  ) {
    super(message);
    this.name = 'CommandError';
  }

  get code(): number {
    return ErrorCode[this.codeName];
  }

  toDocument(): Document {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
  }
}

/** A duplicate-key error: what mongoose turns into its E11000 MongoServerError. */
export class DuplicateKeyError extends CommandError {
  constructor(
    namespace: string,
    indexName: string,
    readonly keyPattern: Document,
    readonly keyValue: Document,
  ) {
    const shown = Object.entries(keyValue)
      .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
      .join(', ');
    super(
      'DuplicateKey',
      `E11000 duplicate key error collection: ${namespace} index: ${indexName} dup key: { ${shown} }`,
      { keyPattern, keyValue },
    );
  }

  /** The entry of a write command's `writeErrors`. */
  toWriteError(index: number): Document {
    return {
      index,
      code: this.code,
      errmsg: this.message,
      keyPattern: this.keyPattern,
      keyValue: this.keyValue,
    };
  }
}
