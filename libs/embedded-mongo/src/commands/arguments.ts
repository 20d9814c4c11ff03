import { type Document, Long } from 'bson';
import { refuseCollationBlind } from './unsupported.js';
import { CommandError } from '../errors.js';
import { parseCollation } from '../store/collation.js';
import type { MatchOptions } from '../store/matching.js';

/** The collection a command names in its first field, refused as MongoDB refuses a bad one. */
export function collectionName(body: Document, command: string): string {
  const name = body[command];
  if (typeof name !== 'string' || name.length === 0) {
    throw new CommandError(
      'InvalidNamespace',
      `collection name must be a non-empty string, not ${JSON.stringify(name)}`,
    );
  }
  if (name.includes('$') || name.startsWith('system.')) {
    throw new CommandError('InvalidNamespace', `Invalid collection name: ${name}`);
  }
  return name;
}

/** A command's `let`: the variables its `$$names` read. */
function letOf(body: Document): Document | undefined {
  const variables: unknown = body['let'];
  if (variables === undefined || variables === null) return undefined;
  if (typeof variables !== 'object' || Array.isArray(variables)) {
    throw new CommandError('TypeMismatch', "BSON field 'let' is the wrong type, expected object");
  }
  return variables as Document;
}

/**
 * What a command's reads are evaluated with: its `let`, and the collation of the command (or of
 * the statement, for an update's or a delete's), checked against what ignores a collation.
 */
export function matchOf(
  command: string,
  body: Document,
  collation: unknown,
  ...collationBlind: unknown[]
): MatchOptions {
  const variables = letOf(body);
  const parsed = parseCollation(collation, command);
  if (parsed) for (const spec of collationBlind) refuseCollationBlind(spec, command);
  return {
    ...(variables ? { variables } : {}),
    ...(parsed ? { collation: parsed } : {}),
  };
}

/** A numeric argument (a driver may send an int, a double or a Long), or the fallback. */
export function toNumber(value: unknown, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'number') return value;
  if (value instanceof Long) return value.toNumber();
  return Number(value);
}
