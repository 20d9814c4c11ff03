import type { Document } from 'bson';
import { matchOf, toNumber } from './arguments.js';
import type { Handler } from './context.js';
import { CommandError, evaluationError } from '../errors.js';
import { aggregatorOf } from '../store/matching.js';
import { cloneDocument } from '../store/values.js';

const SUPPORTED_STAGES = new Set([
  '$match',
  '$sort',
  '$skip',
  '$limit',
  '$project',
  '$addFields',
  '$set',
  '$unset',
  '$group',
  '$count',
  '$unwind',
  '$lookup',
  '$facet',
  '$replaceRoot',
  '$replaceWith',
  '$sortByCount',
  '$bucket',
  '$sample',
]);

export const aggregate: Handler = (body, db, context) => {
  const target = body['aggregate'];
  const pipeline = (body['pipeline'] ?? []) as Document[];
  const checkStages = (stages: Document[]) => {
    for (const stage of stages) {
      const [operator] = Object.keys(stage);
      if (!operator || !SUPPORTED_STAGES.has(operator)) {
        throw new CommandError(
          'UnrecognizedPipelineStage',
          `Unrecognized pipeline stage name: '${operator ?? ''}' (not supported by the embedded server)`,
        );
      }
      if (operator === '$facet')
        for (const sub of Object.values(stage['$facet'] as Document))
          checkStages(sub as Document[]);
    }
  };
  checkStages(pipeline);
  const match = matchOf('aggregate', body, body['collation'], pipeline);
  const collection = typeof target === 'string' ? context.engine.collection(db, target) : undefined;
  // A leading $match is answered by the collection, through its indexes where it can.
  const [first] = pipeline;
  const leadingMatch =
    first && Object.keys(first)[0] === '$match' ? (first['$match'] as Document) : undefined;
  const input = collection
    ? leadingMatch
      ? collection.find(leadingMatch, undefined, match)
      : [...collection.all()]
    : [];
  const stages = leadingMatch ? pipeline.slice(1) : pipeline;
  const resolver = (name: string) => [...(context.engine.collection(db, name)?.all() ?? [])];
  let output: Document[];
  try {
    output = aggregatorOf(stages, { ...match, resolver }).run(
      input.map((doc) => cloneDocument(doc)),
    ) as Document[];
  } catch (error) {
    throw evaluationError(error, 'BadValue');
  }
  const cursorOptions = (body['cursor'] ?? {}) as Document;
  const name = typeof target === 'string' ? target : '$cmd.aggregate';
  return {
    cursor: context.openCursor(`${db}.${name}`, output, toNumber(cursorOptions['batchSize'], 101)),
    ok: 1,
  };
};
