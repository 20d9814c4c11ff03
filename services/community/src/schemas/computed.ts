import { isDuplicateKeyError } from '@debate/nest';
import type { Model } from 'mongoose';

/** What a background recompute stores: its result, when it was computed and in how long. */
interface Computed {
  readonly computedAt: string | null;
  readonly computeMs: number | null;
}

/**
 * Stores `result` as the document `_id` of `model`, computed from the public debates as they
 * were read at `readAt`, unless one read later is there already (another replica's recompute
 * finished after this one began): a board of the leaderboard, or the judges' record.
 */
export async function storeUnlessReadLater<D extends { _id: string; readAt: Date }>(
  model: Model<D>,
  _id: string,
  result: Computed,
  readAt: Date,
): Promise<void> {
  try {
    await model
      .updateOne(
        { _id, $or: [{ readAt: { $lt: readAt } }, { readAt: { $exists: false } }] },
        {
          $set: {
            ...result,
            computedAt: new Date(result.computedAt ?? readAt),
            computeMs: result.computeMs ?? 0,
            readAt,
          },
        },
        { upsert: true },
      )
      .exec();
  } catch (error) {
    // The filter missed a document read later than this one: it stays.
    if (!isDuplicateKeyError(error)) throw error;
  }
}
