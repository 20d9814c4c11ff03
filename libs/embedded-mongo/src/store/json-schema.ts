import { Binary, type Document, Decimal128, Long, ObjectId, Timestamp } from 'bson';
import AjvModule, { type ValidateFunction } from 'ajv-draft-04';
import { CommandError } from '../errors.js';

/**
 * `$jsonSchema` as MongoDB reads it (https://www.mongodb.com/docs/manual/reference/operator/query/jsonSchema/):
 * JSON Schema draft 4 with `bsonType`, without `$ref`, `$schema`, `default`, `definitions`,
 * `format`, `id` and the `integer` type, which MongoDB refuses.
 */
const OMITTED_KEYWORDS = new Set(['$ref', '$schema', 'default', 'definitions', 'format', 'id']);

/** BSON type aliases (https://www.mongodb.com/docs/manual/reference/bson-types/) as values here. */
const BSON_TYPES: Readonly<Record<string, (value: unknown) => boolean>> = {
  // A double and an int32 both arrive as a JS number: 'double' accepts any number.
  double: (value) => typeof value === 'number',
  string: (value) => typeof value === 'string',
  object: (value) => isPlainObject(value),
  array: (value) => Array.isArray(value),
  binData: (value) => value instanceof Binary || value instanceof Uint8Array,
  objectId: (value) => value instanceof ObjectId,
  bool: (value) => typeof value === 'boolean',
  date: (value) => value instanceof Date,
  null: (value) => value === null,
  regex: (value) => value instanceof RegExp,
  int: (value) => typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < 2 ** 31,
  timestamp: (value) => value instanceof Timestamp,
  long: (value) => value instanceof Long || (typeof value === 'number' && Number.isInteger(value)),
  decimal: (value) => value instanceof Decimal128,
  number: (value) =>
    typeof value === 'number' || value instanceof Long || value instanceof Decimal128,
};

function isPlainObject(value: unknown): value is Document {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function schemaError(message: string): CommandError {
  return new CommandError('FailedToParse', message);
}

/** Checks a schema (and its subschemas) for what MongoDB refuses, before ajv compiles it. */
function checkSchema(schema: unknown): void {
  if (Array.isArray(schema)) {
    for (const item of schema) checkSchema(item);
    return;
  }
  if (!isPlainObject(schema)) return;
  for (const [keyword, value] of Object.entries(schema)) {
    if (OMITTED_KEYWORDS.has(keyword)) {
      throw schemaError(`$jsonSchema keyword '${keyword}' is not currently supported`);
    }
    if (keyword === 'type' && [value].flat().includes('integer')) {
      throw schemaError("$jsonSchema type 'integer' is not currently supported.");
    }
    if (keyword === 'bsonType') {
      for (const alias of [value].flat()) {
        if (typeof alias !== 'string' || !BSON_TYPES[alias]) {
          throw new CommandError('BadValue', `Unknown type name alias: ${String(alias)}`);
        }
      }
    }
    // Enum values and property names are data, not schemas.
    if (keyword !== 'enum') checkSchema(value);
  }
}

// ajv-draft-04 is CommonJS: imported from ESM, its class is the module's `default` property.
const ajv = new AjvModule.default({
  allErrors: false,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  validateSchema: true,
});
ajv.addKeyword({
  keyword: 'bsonType',
  schemaType: ['string', 'array'],
  validate: (aliases: string | string[], value: unknown) =>
    [aliases].flat().some((alias) => BSON_TYPES[alias]?.(value) ?? false),
});

const compiled = new WeakMap<object, ValidateFunction>();

/** A `$jsonSchema`'s test, compiled once per schema object (mingo's `jsonSchemaValidator`). */
export function jsonSchemaValidator(schema: Record<string, unknown>): (value: unknown) => boolean {
  let validate = compiled.get(schema);
  if (!validate) {
    checkSchema(schema);
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      throw schemaError(`$jsonSchema is invalid: ${(error as Error).message}`);
    }
    compiled.set(schema, validate);
  }
  const test = validate;
  return (value) => test(value) === true;
}
