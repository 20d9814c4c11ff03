import {
  forSpeakerOf,
  type JudgesReport,
  modelKinds,
  speakerNames,
  StanceAfter,
  StanceBefore,
  VerdictReading,
  VoteKind,
  WrittenBy,
  type RoomWinner,
} from '@debate/contracts';
import { MONGO_CONNECTION } from '@debate/nest';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Connection, Model } from 'mongoose';
import { z } from 'zod';
import { mindsChangedOf } from '../minds/minds-changed.js';
import {
  JUDGES_REPORT_ID,
  type JudgesReportDocument,
  judgesReportModel,
} from '../schemas/judges-report.schema.js';
import { type SidesWords, SidesWordsCounter } from '../public-debates/sides-words.js';
import { storeUnlessReadLater } from '../schemas/computed.js';
import { type PublicDebateDocument, publicDebateModel } from '../schemas/public-debate.schema.js';
import type { JudgedDebate, JudgeVerdict } from './judged-debate.js';

/** What the judges' record reads of each judged public debate, and no more. */
const JUDGED_FIELDS = [
  'userId',
  'verdict.winner',
  'verdict.readings',
  'verdict.judgedBy.kind',
  'verdict.judgedBy.modelId',
  'verdict.judgedBy.label',
  // The panel whole: a path into an array (`verdict.panel.winner`) would send every document
  // through the embedded store's general projection, many times slower; a panel is small.
  'verdict.panel',
  ...['model1', 'model2'].flatMap((side) => [
    `${side}.stance`,
    `${side}.writtenBy.kind`,
    `${side}.writtenBy.modelId`,
  ]),
  'sharedAt',
  'minds',
  'votes',
];

/** One judge's verdict as stored (the contracts' Verdict or PanelVerdict, the fields read). */
const storedVerdict = z.object({
  winner: z.enum(speakerNames).nullable(),
  readings: z.tuple([VerdictReading, VerdictReading]),
  // (Its other fields, a panel's judge's tokens and times, are not read.)
  judgedBy: z.object({
    kind: WrittenBy.shape.kind,
    modelId: WrittenBy.shape.modelId,
    label: WrittenBy.shape.label,
  }),
});

const storedSpeaker = z.object({
  stance: z.number(),
  writtenBy: z
    .object({ kind: z.enum(modelKinds), modelId: z.string().min(1) })
    .nullable()
    .default(null),
});

/** A stored judged public debate as the judges' record reads it, checked: the store is a boundary. */
const storedDebate = z.object({
  _id: z.string().min(1),
  userId: z.string().min(1),
  sharedAt: z.date(),
  verdict: storedVerdict.extend({ panel: z.array(storedVerdict).default([]) }),
  model1: storedSpeaker,
  model2: storedSpeaker,
  minds: z
    .partialRecord(StanceBefore, z.partialRecord(StanceAfter, z.number().int().nonnegative()))
    .nullable()
    .default(null),
  votes: z.record(z.string(), VoteKind).nullable().default(null),
});
type StoredDebate = z.output<typeof storedDebate>;

/**
 * The side the readers' For/Against votes favour; null without either. The author's own vote
 * (the For every share starts with, spec §3) is no reader's.
 */
function votesSide({ votes, userId }: StoredDebate): RoomWinner | null {
  let forVotes = 0;
  let againstVotes = 0;
  for (const [voterId, vote] of Object.entries(votes ?? {})) {
    if (voterId === userId) continue;
    if (vote === 'FOR') forVotes += 1;
    else if (vote === 'AGAINST') againstVotes += 1;
  }
  if (forVotes + againstVotes === 0) return null;
  return forVotes > againstVotes ? 'FOR' : againstVotes > forVotes ? 'AGAINST' : 'TIE';
}

/** A stored debate as the judges' record reads it, with its sides' words. */
function judgedDebateOf(stored: StoredDebate, words: SidesWords | undefined): JudgedDebate {
  const { verdict, model1, model2 } = stored;
  const modelOf = (speaker: z.output<typeof storedSpeaker>) =>
    speaker.writtenBy && speaker.writtenBy.kind !== 'person' ? speaker.writtenBy.modelId : null;
  const verdictOf = (read: z.output<typeof storedVerdict>): JudgeVerdict => ({
    judgeId: read.judgedBy.modelId,
    label: read.judgedBy.label,
    kind: read.judgedBy.kind,
    winner: read.winner,
    readings: read.readings,
  });
  return {
    id: stored._id,
    firstModelId: modelOf(model1),
    secondModelId: modelOf(model2),
    forSide: forSpeakerOf(model1.stance, model2.stance),
    words: { first: words?.first ?? 0, second: words?.second ?? 0 },
    verdicts: [verdictOf(verdict), ...verdict.panel.map(verdictOf)],
    readersMinds: mindsChangedOf(stored.minds ?? undefined).shares?.winner ?? null,
    readersVotes: votesSide(stored),
  };
}

/** A stored report, as the contract's (its times as ISO strings). */
function toReport(document: JudgesReportDocument): JudgesReport {
  return {
    judges: document.judges,
    all: document.all,
    debates: document.debates,
    bootstrapRounds: document.bootstrapRounds,
    computedAt: document.computedAt.toISOString(),
    computeMs: document.computeMs,
  };
}

/**
 * The judges' record's store: reads the judged public debates (`public_debates`, read only) and
 * keeps the report computed from them in `judges_reports`.
 */
@Injectable()
export class JudgesRepository implements OnApplicationBootstrap {
  private readonly debates: Model<PublicDebateDocument>;
  private readonly reports: Model<JudgesReportDocument>;

  constructor(
    @Inject(MONGO_CONNECTION) connection: Connection,
    private readonly sidesWords: SidesWordsCounter,
  ) {
    this.debates = publicDebateModel(connection);
    this.reports = judgesReportModel(connection);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.reports.init();
  }

  /**
   * Every judged public debate, as the record reads it, with its sides' words (counted once per
   * share, SidesWordsCounter); a document that does not read as one is left out, and counted.
   */
  async judgedDebates(): Promise<{ debates: JudgedDebate[]; unreadable: number }> {
    const found = await this.debates
      .find(
        { removedAt: null, verdict: { $ne: null } },
        Object.fromEntries(JUDGED_FIELDS.map((field) => [field, 1])),
      )
      .lean<unknown[]>()
      .exec();
    const stored = found.flatMap((document) => {
      const parsed = storedDebate.safeParse(document);
      return parsed.success ? [parsed.data] : [];
    });
    const words = await this.sidesWords.of(stored);
    return {
      debates: stored.map((debate) => judgedDebateOf(debate, words.get(debate._id))),
      unreadable: found.length - stored.length,
    };
  }

  /** The stored report; null before the first recompute. */
  async report(): Promise<JudgesReport | null> {
    const found = await this.reports
      .findOne({ _id: JUDGES_REPORT_ID }, { readAt: 0 })
      .lean<JudgesReportDocument>()
      .exec();
    return found ? toReport(found) : null;
  }

  /**
   * Stores `report`, computed from the debates as they were read at `readAt`, unless one read
   * later is there already (another replica's recompute finished after this one began).
   */
  async save(report: JudgesReport, readAt: Date): Promise<void> {
    await storeUnlessReadLater(this.reports, JUDGES_REPORT_ID, report, readAt);
  }
}
