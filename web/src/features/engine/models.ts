import type { CatalogQuery, DebateRunSubscription } from '../../gql/graphql';
import { OFFLINE_KIND, PERSON_KIND } from '../debates/provenance';

/** A model of the catalogue, as the speaker cards offer it. */
export type CatalogModel = CatalogQuery['catalog']['models'][number];

/** The local model on its way (the catalogue's localModel): null when the platform runs none. */
export type LocalModel = CatalogQuery['catalog']['localModel'];

/** How often the catalogue is asked again while the local model is on its way, in ms. */
export const LOCAL_MODEL_POLL_MS = 3_000;

/** Whether the local model is on its way: it will join the catalogue without a reload. */
function onItsWay(localModel: LocalModel | undefined): boolean {
  return localModel?.status === 'downloading' || localModel?.status === 'loading';
}

/**
 * How often the engine page asks for the catalogue again: every few seconds while the local
 * model downloads or loads, so that it joins the speakers' lists when ready; else never (0).
 */
export function catalogPollingInterval(localModel: LocalModel | undefined): number {
  return onItsWay(localModel) ? LOCAL_MODEL_POLL_MS : 0;
}

/**
 * The engine page's line while the local model is on its way ('The local model is downloading:
 * 43 % — …'); null when there is nothing to say (ready, failed, or none).
 */
export function localModelText(localModel: LocalModel | undefined): string | null {
  if (!localModel || !onItsWay(localModel)) return null;
  const meanwhile = 'debates use the offline speaker until it is ready';
  if (localModel.status === 'loading') return `The local model is loading — ${meanwhile}`;
  return localModel.progress === null
    ? `The local model is downloading — ${meanwhile}`
    : `The local model is downloading: ${Math.floor(localModel.progress * 100)} % — ${meanwhile}`;
}

/** A model as the run names it (runStarted's firstModel and secondModel). */
export type RunModel = NonNullable<DebateRunSubscription['debateRun']['firstModel']>;

/** What the model select shows of a model: its label, and whether it has been failing. */
export function modelOptionText(model: Pick<CatalogModel, 'label' | 'status'>): string {
  return model.status === 'degraded' ? `${model.label} (failing lately)` : model.label;
}

/**
 * The model a speaker is given: the one chosen when the catalogue offers it, else the
 * catalogue's first (its default), e.g. for a stale 'gpt-4' or before anything was chosen.
 */
export function chosenModel(models: readonly Pick<CatalogModel, 'id'>[], chosen: string): string {
  if (models.some((model) => model.id === chosen)) return chosen;
  return models[0]?.id ?? chosen;
}

/**
 * Who writes the debate being run, truthfully, from its runStarted event: each speaker's model,
 * and for the offline speaker that no AI model is called. The first speaker's model writes the
 * moderator's turns too.
 */
export function whoWrites(first: RunModel, second: RunModel, moderator: boolean): string[] {
  const sentence = (subject: string, plural: boolean, model: RunModel, scope: string) =>
    model.kind === OFFLINE_KIND
      ? `${subject} ${plural ? 'are' : 'is'} written by the offline speaker: no AI model is called for ${scope}.`
      : `${subject} ${plural ? 'are' : 'is'} written by ${model.label}.`;
  // A person against a model: the model's side writes the moderator's turns, if any.
  if (first.kind === PERSON_KIND || second.kind === PERSON_KIND) {
    const personFirst = first.kind === PERSON_KIND;
    const model = personFirst ? second : first;
    const modelSide = personFirst ? 'Second Speaker' : 'First Speaker';
    return [
      `You are ${personFirst ? 'First Speaker' : 'Second Speaker'}.`,
      moderator
        ? sentence(`${modelSide} and the moderator`, true, model, 'them')
        : sentence(modelSide, false, model, 'it'),
    ];
  }
  if (first.id === second.id) {
    const subject = moderator ? 'Both speakers and the moderator' : 'Both speakers';
    return [sentence(subject, true, first, 'this debate')];
  }
  return [
    moderator
      ? sentence('First Speaker and the moderator', true, first, 'them')
      : sentence('First Speaker', false, first, 'it'),
    sentence('Second Speaker', false, second, 'it'),
  ];
}
