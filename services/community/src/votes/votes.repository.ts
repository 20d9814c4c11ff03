import type { VoteCounts, VoteKind } from '@debate/contracts';
import { MONGO_CONNECTION } from '@debate/nest';
import { Inject, Injectable } from '@nestjs/common';
import type { Connection, Model } from 'mongoose';
import { type PublicDebateDocument, publicDebateModel } from '../schemas/public-debate.schema.js';

/** The counters of a debate and, at most, one voter's vote and answer before reading. */
export type VoteState = Pick<
  PublicDebateDocument,
  '_id' | 'votes' | 'before' | 'minds' | keyof VoteCounts
>;

/** A reader's marks on a debate (at most theirs), its author, and its minds changed. */
export type ReaderState = Pick<
  PublicDebateDocument,
  '_id' | 'userId' | 'votes' | 'before' | 'minds'
>;

/** Moves of the minds-changed cells: `minds.FOR.AGAINST` → +1 or -1. */
export type MindsMoves = Record<string, number>;

/**
 * The votes and the answers before reading, kept in each public debate's document (in
 * public_debates) beside the counters and minds-changed cells they move, so that one write
 * changes them together.
 */
@Injectable()
export class VotesRepository {
  private readonly debates: Model<PublicDebateDocument>;

  constructor(@Inject(MONGO_CONNECTION) connection: Connection) {
    this.debates = publicDebateModel(connection);
  }

  /**
   * The counters of a public debate and the voter's vote and answer before reading on it; null
   * when it is not public.
   */
  findVote(debateId: string, voterId: string): Promise<VoteState | null> {
    return this.debates
      .findOne(
        { _id: debateId, removedAt: null },
        {
          [`votes.${voterId}`]: 1,
          [`before.${voterId}`]: 1,
          minds: 1,
          upvotes: 1,
          downvotes: 1,
          interesting: 1,
        },
      )
      .lean<VoteState>()
      .exec();
  }

  /**
   * Replaces the voter's vote `previous` by `next` (null: none) and moves the counters by
   * `moves` and the minds-changed cells by `minds`, in one write, only if the vote is still
   * `previous` and the answer before reading still `before` (none: SKIPPED is recorded with a
   * vote). The counters after it; null when
   * either changed (or the debate went) since it was read.
   */
  replaceVote(
    debateId: string,
    voterId: string,
    previous: VoteKind | null,
    next: VoteKind | null,
    before: string | null,
    moves: Partial<Record<keyof VoteCounts, number>> & MindsMoves,
  ): Promise<Pick<PublicDebateDocument, '_id' | 'minds' | keyof VoteCounts> | null> {
    const path = `votes.${voterId}`;
    return this.debates
      .findOneAndUpdate(
        {
          _id: debateId,
          removedAt: null,
          [path]: previous ?? { $exists: false },
          [`before.${voterId}`]: before ?? { $exists: false },
        },
        {
          // A first vote without an answer before reading closes the question for good: the
          // reader's mind before reading is unknown from now on (SKIPPED), vote taken back or not.
          ...(next
            ? { $set: { [path]: next, ...(before ? {} : { [`before.${voterId}`]: 'SKIPPED' }) } }
            : { $unset: { [path]: 1 } }),
          $inc: moves,
        },
        {
          returnDocument: 'after',
          projection: { upvotes: 1, downvotes: 1, interesting: 1, minds: 1 },
        },
      )
      .lean<Pick<PublicDebateDocument, '_id' | 'minds' | keyof VoteCounts>>()
      .exec();
  }

  /** A reader's vote and answer before reading, the author and the minds changed; null: not public. */
  findReader(debateId: string, readerId: string): Promise<ReaderState | null> {
    return this.debates
      .findOne(
        { _id: debateId, removedAt: null },
        { userId: 1, [`votes.${readerId}`]: 1, [`before.${readerId}`]: 1, minds: 1 },
      )
      .lean<ReaderState>()
      .exec();
  }

  /**
   * Records where the reader stood before reading, in one write, only if they have not answered
   * (or skipped), have not voted and are not the author. The debate's state after it; null when
   * that was not so (or the debate is not public).
   */
  recordBefore(
    debateId: string,
    readerId: string,
    stance: PublicDebateDocument['before'][string],
  ): Promise<ReaderState | null> {
    const path = `before.${readerId}`;
    return this.debates
      .findOneAndUpdate(
        {
          _id: debateId,
          removedAt: null,
          userId: { $ne: readerId },
          [path]: { $exists: false },
          [`votes.${readerId}`]: { $exists: false },
        },
        { $set: { [path]: stance } },
        {
          returnDocument: 'after',
          projection: { userId: 1, [`votes.${readerId}`]: 1, [path]: 1, minds: 1 },
        },
      )
      .lean<ReaderState>()
      .exec();
  }

  /** Writes the debate's scores if its counters are still `counts`. */
  async writeScores(
    debateId: string,
    counts: VoteCounts,
    scores: Pick<PublicDebateDocument, 'popularity' | 'controversy'>,
  ): Promise<void> {
    await this.debates
      .updateOne(
        { _id: debateId, upvotes: counts.upvotes, downvotes: counts.downvotes },
        { $set: scores },
      )
      .exec();
  }
}
