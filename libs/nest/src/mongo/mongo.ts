import mongoose, { type Connection } from 'mongoose';

/** The injection token of a service's own database connection. */
export const MONGO_CONNECTION = Symbol('MONGO_CONNECTION');

/**
 * Opens a service's own database (named after the service) on `url`: a service owns its
 * collections, and nobody else reads them.
 */
export async function openServiceDatabase(url: string, database: string): Promise<Connection> {
  return mongoose
    .createConnection(url, { dbName: database, serverSelectionTimeoutMS: 10_000 })
    .asPromise();
}

/** Retries `operation` on MongoDB's transient errors, at most `attempts` times in all. */
export async function withTransientRetry<T>(
  operation: () => Promise<T>,
  attempts = 5,
  delayMs = 50,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= attempts || !isTransient(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs * attempt));
    }
  }
}

function isTransient(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const labels = (error as { errorLabels?: unknown }).errorLabels;
  if (Array.isArray(labels) && labels.includes('TransientTransactionError')) return true;
  const name = (error as { name?: unknown }).name;
  return name === 'MongoNetworkError' || name === 'MongoServerSelectionError';
}

/** MongoDB's E11000: a write refused by a unique index (the document is there already). */
export function isDuplicateKeyError(error: unknown): boolean {
  return !!error && typeof error === 'object' && (error as { code?: unknown }).code === 11000;
}
