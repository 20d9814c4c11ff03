import { FinishedRun, KEPT_RUN_DAYS } from '@debate/contracts';
import { MONGO_CONNECTION } from '@debate/nest';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Connection, Model } from 'mongoose';
import { type KeptRunDocument, keptRunModel } from '../schemas/kept-run.schema.js';

const KEPT_MS = KEPT_RUN_DAYS * 24 * 60 * 60 * 1000;

/** Each user's latest completed run, until it is saved, replaced or KEPT_RUN_DAYS old. */
@Injectable()
export class KeptRunsRepository implements OnApplicationBootstrap {
  private readonly runs: Model<KeptRunDocument>;

  constructor(@Inject(MONGO_CONNECTION) connection: Connection) {
    this.runs = keptRunModel(connection);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.runs.init();
  }

  /** Keeps `run` as the user's latest, in place of the one before. */
  async keep(userId: string, run: FinishedRun, now: Date): Promise<void> {
    await this.runs.replaceOne({ _id: userId }, { run, keptAt: now }, { upsert: true }).exec();
  }

  /** The user's kept run if it is `runId` and not too old; null otherwise. */
  async find(userId: string, runId: string, now: Date): Promise<FinishedRun | null> {
    const kept = await this.runs
      .findOne({
        _id: userId,
        'run.runId': runId,
        keptAt: { $gt: new Date(now.getTime() - KEPT_MS) },
      })
      .lean<KeptRunDocument>()
      .exec();
    if (!kept) return null;
    // Written by this service from a validated request; read back through the contract all the same.
    const parsed = FinishedRun.safeParse(kept.run);
    return parsed.success ? parsed.data : null;
  }

  /** Forgets the user's kept run once it is saved (another run's is left alone). */
  async forget(userId: string, runId: string): Promise<void> {
    await this.runs.deleteOne({ _id: userId, 'run.runId': runId }).exec();
  }
}
