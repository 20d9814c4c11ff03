import { randomBytes } from 'node:crypto';

/**
 * This process's key among the instances of its service: 8 hex digits, new at every start.
 * A request that must reach the instance holding some state (a debate run lives in the
 * instance that generates it) goes to `<subject>.<key>`, which only that process subscribes to;
 * everything else goes to the plain subject and any instance of the queue group takes it.
 */
export const INSTANCE_KEY = randomBytes(4).toString('hex');

/** The subject of `subject` on the instance whose key is `key`. */
export function instanceSubject(subject: string, key: string): string {
  return `${subject}.${key}`;
}
