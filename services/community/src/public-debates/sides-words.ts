import { countWords, speakerNames } from '@debate/contracts';
import { MONGO_CONNECTION } from '@debate/nest';
import { Inject, Injectable } from '@nestjs/common';
import type { Connection, Model } from 'mongoose';
import { z } from 'zod';
import { type PublicDebateDocument, publicDebateModel } from '../schemas/public-debate.schema.js';

/** A stored public debate's rounds as their words are counted: whose each is, and its text. */
const storedTexts = z.object({
  _id: z.string().min(1),
  sharedAt: z.date(),
  rounds: z
    .array(z.object({ speaker: z.string(), text: z.string().nullable().default(null) }))
    .default([]),
});

/** Each side's words in a public debate, as it was shared. */
export interface SidesWords {
  /** When the copy counted was shared (ms): a copy shared again is counted again. */
  readonly sharedAt: number;
  readonly first: number;
  readonly second: number;
}

/** A public debate as the count asks for it: its id and when its copy was shared. */
export interface SharedCopy {
  readonly _id: string;
  readonly sharedAt: Date;
}

/**
 * Each public debate's sides' words (`countWords` over each speaker's rounds), the length the
 * controlled boards and the judges' record weigh. A shared copy's rounds do not change, so the
 * texts of a debate are read and counted once per share, one document at a time, and only the
 * numbers kept (counting every text again on every recompute would more than double one).
 */
@Injectable()
export class SidesWordsCounter {
  private readonly debates: Model<PublicDebateDocument>;
  private readonly words = new Map<string, SidesWords>();

  constructor(@Inject(MONGO_CONNECTION) connection: Connection) {
    this.debates = publicDebateModel(connection);
  }

  /** The words of `debates`, counting those not counted as shared now. */
  async of(debates: readonly SharedCopy[]): Promise<ReadonlyMap<string, SidesWords>> {
    const uncounted = debates
      .filter(({ _id, sharedAt }) => this.words.get(_id)?.sharedAt !== sharedAt.getTime())
      .map(({ _id }) => _id);
    if (uncounted.length > 0) {
      const texts = this.debates
        .find({ _id: { $in: uncounted } }, { sharedAt: 1, 'rounds.speaker': 1, 'rounds.text': 1 })
        .lean<unknown>()
        .cursor();
      for await (const document of texts) {
        const parsed = storedTexts.safeParse(document);
        if (!parsed.success) continue;
        const { _id, sharedAt, rounds } = parsed.data;
        const wordsOf = (speaker: (typeof speakerNames)[number]) =>
          rounds.reduce(
            (sum, round) => sum + (round.speaker === speaker ? countWords(round.text ?? '') : 0),
            0,
          );
        this.words.set(_id, {
          sharedAt: sharedAt.getTime(),
          first: wordsOf('First Speaker'),
          second: wordsOf('Second Speaker'),
        });
      }
    }
    return this.words;
  }

  /** Forgets the debates not in `current` (every public debate, as a recompute read them). */
  forgetAllBut(current: readonly SharedCopy[]): void {
    const kept = new Set(current.map(({ _id }) => _id));
    for (const id of this.words.keys()) if (!kept.has(id)) this.words.delete(id);
  }
}
