import { Binary, BSON, type Document, Decimal128, Long, ObjectId, Timestamp } from 'bson';
import AjvModule, { type ValidateFunction } from 'ajv-draft-04';
import { CommandError } from '../errors.js';
import { isPlainObject } from './values.js';

/**
 * `$jsonSchema` as MongoDB reads it (https://www.mongodb.com/docs/manual/reference/operator/query/jsonSchema/):
 * JSON Schema draft 4 with `bsonType`, without `$ref`, `$schema`, `default`, `definitions`,
 * `format`, `id` and the `integer` type, which MongoDB refuses.
 */
const OMITTED_KEYWORDS = new Set(['$ref', '$schema', 'default', 'definitions', 'format', 'id']);

/** BSON type aliases (https://www.mongodb.com/docs/manual/reference/bson-types/) as values here. */
const BSON_TYPES: Readonly<Record<string, (value: unknown) => boolean>> = {
  // A double, an int32 and a long that fits arrive as a JS number: 'double' accepts any number,
  // 'int' an integer in 32 bits, 'long' any integer.
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

/** MongoDB's JSON `type` names, as the BSON types each stands for. */
const JSON_TYPES: Readonly<Record<string, string>> = {
  object: 'object',
  array: 'array',
  number: 'number',
  boolean: 'bool',
  string: 'string',
  null: 'null',
};

/** Keywords whose value maps names to schemas: the names are data, each value a schema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependencies']);

function schemaError(message: string): CommandError {
  return new CommandError('FailedToParse', message);
}

/**
 * A schema checked for what MongoDB refuses, with each JSON `type` made the `bsonType` it means
 * here (ajv's 'object' would take a date or an ObjectId, its 'number' no Long), before ajv
 * compiles it.
 */
function prepared(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(prepared);
  if (!isPlainObject(schema)) return schema;
  const result: Document = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (OMITTED_KEYWORDS.has(keyword)) {
      throw schemaError(`$jsonSchema keyword '${keyword}' is not currently supported`);
    }
    if (keyword === 'type') {
      const names = [value].flat();
      if (names.includes('integer')) {
        throw schemaError("$jsonSchema type 'integer' is not currently supported.");
      }
      const aliases = names.map((name) =>
        typeof name === 'string' ? JSON_TYPES[name] : undefined,
      );
      if (aliases.some((alias) => alias === undefined)) {
        throw new CommandError('BadValue', `Unknown type name alias: ${String(value)}`);
      }
      if ('bsonType' in schema) {
        throw schemaError("$jsonSchema: 'type' and 'bsonType' cannot both be given");
      }
      result['bsonType'] = Array.isArray(value) ? aliases : aliases[0];
      continue;
    }
    if (keyword === 'bsonType') {
      for (const alias of [value].flat()) {
        if (typeof alias !== 'string' || !BSON_TYPES[alias]) {
          throw new CommandError('BadValue', `Unknown type name alias: ${String(alias)}`);
        }
      }
      result[keyword] = value;
      continue;
    }
    if (keyword === 'enum' || keyword === 'required') {
      result[keyword] = value; // data, not schemas
      continue;
    }
    if (SCHEMA_MAPS.has(keyword) && isPlainObject(value)) {
      result[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, inner]) => [name, prepared(inner)]),
      );
      continue;
    }
    result[keyword] = prepared(value);
  }
  return result;
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

/** The most compiled schemas kept (a validator's, and the latest queries'). */
const MAX_COMPILED = 200;
const compiled = new Map<string, ValidateFunction>();

/**
 * A `$jsonSchema`'s test (mingo's `jsonSchemaValidator`), compiled once per distinct schema and
 * kept among the latest MAX_COMPILED: every query arrives as a new object, and ajv's own cache
 * would keep each one for ever.
 */
export function jsonSchemaValidator(schema: Record<string, unknown>): (value: unknown) => boolean {
  const key = BSON.EJSON.stringify(schema, { relaxed: false });
  let validate = compiled.get(key);
  if (validate) {
    compiled.delete(key); // to the end: the latest used
  } else {
    const ready = prepared(schema) as Document;
    try {
      validate = ajv.compile(ready);
    } catch (error) {
      throw schemaError(`$jsonSchema is invalid: ${(error as Error).message}`);
    } finally {
      ajv.removeSchema(ready);
    }
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
  }
  compiled.set(key, validate);
  const test = validate;
  return (value) => test(value) === true;
}
