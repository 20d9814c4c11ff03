import { MAX_TOPIC_LENGTH, PERSON_MODEL_ID, roundTitles } from '@debate/contracts/constants';
import { useEffect, useId, useRef, useState } from 'react';
import { api } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Dialog } from '../../components/Dialog';
import { SignInDialog } from '../../components/SignInDialog';
import type { DebateSettingsInput, SpeakerSettingsInput } from '../../gql/graphql';
import { OFFLINE_KIND } from '../debates/provenance';
import { Scorecard } from '../debates/Scorecard';
import { NextFreeDebate } from '../account/NextFreeDebate';
import { useUsageQuery } from '../account/usage.api';
import { useUnsavedDebateQuery } from '../debates/debates.api';
import { useCatalogQuery, useCatalogQueryState } from './catalog.api';
import { readDraft, readFollowedRun, sessionStore, writeDraft } from './draft';
import { GlobalSettings } from './components/GlobalSettings';
import { type EngineMode, ModeChoice, PersonSetup } from './components/PersonSetup';
import { RoundResults } from './components/RoundResults';
import { SavePanel } from './components/SavePanel';
import { SpeakerCard } from './components/SpeakerCard';
import { VerifyEmailNotice } from './components/VerifyEmailNotice';
import {
  type CurrentTurn,
  followRun,
  preloadSubscriptionClient,
  type RunRequest,
  runDebate,
  runRestored,
  stopDebate,
  stoppedText,
  type TurnStage,
} from './engine.slice';
import { catalogPollingInterval, chosenModel, localModelText, whoWrites } from './models';
import { localStore, timedOutText } from './person';
import { initialStances, opposingRange, opposingStance } from './stance';

/** Draws a topic other than `current` when there is one. */
function drawTopic(topics: readonly string[], current: string, random: number): string {
  const others = topics.filter((topic) => topic !== current);
  const pool = others.length > 0 ? others : topics;
  return pool[Math.floor(random * pool.length)] ?? current;
}

/** While the judge reads, after the Summary round: 'The judges are reading the debate… (Offline judge)'. */
function judgingText(judge: string): string {
  return `The judges are reading the debate… (${judge})`;
}

/** The topic's length is shown from this many characters on, near the limit. */
const TOPIC_COUNTER_FROM = MAX_TOPIC_LENGTH - 100;
function topicCounterText(length: number): string {
  return `${length} of ${MAX_TOPIC_LENGTH} characters`;
}

/** How close to the stream's end the reader must be for the page to follow it. */
const FOLLOW_MARGIN_PX = 160;

/** What a speaker team is doing, by its turn's stage. */
const stageVerbs: Readonly<Record<TurnStage, string>> = {
  searching: "'s team is searching for evidence",
  analyzing: "'s team is analyzing the debate",
  writing: "'s team is writing",
  reviewing: "'s team is reviewing the draft",
  revising: "'s team is revising",
};

/**
 * 'First Speaker is speaking: round 2 of 3, Rebuttal' (a team's turn: 'First Speaker's team is
 * reviewing the draft: …'); the moderator's turns by their title.
 */
export function speakingText(current: CurrentTurn) {
  const doing = current.stage ? stageVerbs[current.stage] : ' is speaking';
  return current.round >= 1 && current.round <= roundTitles.length
    ? `${current.speaker}${doing}: round ${current.round} of ${roundTitles.length}, ${current.roundTitle}`
    : `${current.speaker}${doing}: ${current.roundTitle}`;
}

/** 'Begin discussion' over a finished debate not saved yet. */
const REPLACE_HEADING = 'Begin a new debate?';
function replaceText(topic: string): string {
  return `Your debate “${topic}” is not saved. A new one replaces it: save it first if you want to keep it.`;
}

/** Before Begin: what the allowance has left. */
function freeDebatesLeftText(count: number): string {
  return count === 1 ? '1 free debate left.' : `${count} free debates left.`;
}

/** Over a rematch's run: what it is. */
const REMATCH_NOTE =
  'The side-swapped rematch of your debate: the same motion, format and sides, each model now on the other side. Saved and shared with its first debate, each one’s page shows the other.';

/** A speaker's turn could not be written: the debate is not judged. */
const NOT_JUDGED =
  'Not judged: a speaker’s turn could not be written, and the judges score complete debates only.';

/** The run ended without a scorecard: the judge could not score it. */
const JUDGE_FAILED = 'The judge could not score this debate.';

/** The stance a person's side is sent with: For or Against, firmly. */
const PERSON_STANCE = 0.8;

// No model chosen yet: each speaker is given the catalogue's first (chosenModel).
const speaker = (stance: number): SpeakerSettingsInput => ({
  model: '',
  stance,
  rhetoricStyle: 'standard',
  personality: '',
});

/** /engine: the debate generator (spec §2). */
export function EnginePage() {
  const dispatch = useAppDispatch();
  // Asked again while the local model is on its way: ready, it joins the speakers' lists, first,
  // so the default of a speaker nobody chose a model for.
  const received = useCatalogQueryState(undefined).data;
  const { data, error } = useCatalogQuery(undefined, {
    pollingInterval: catalogPollingInterval(received?.localModel),
  });
  const localModelLine = localModelText(data?.localModel);
  const auth = useAppSelector((state) => state.auth.status);
  const user = useAppSelector((state) => state.auth.user);
  const engine = useAppSelector((state) => state.engine);
  // The draft kept through sign-in and reloads, else the defaults.
  const [draft] = useState(() => readDraft(sessionStore()));
  const [typedTopic, setTopic] = useState(draft?.topic ?? '');
  // A rematch started from the history shows its motion until another is typed.
  const topic = engine.rematchOf && engine.topic && typedTopic === '' ? engine.topic : typedTopic;
  const [debateFormat, setDebateFormat] = useState(draft?.debateFormat ?? 'structured');
  const [moderatorEnabled, setModeratorEnabled] = useState(draft?.moderatorEnabled ?? false);
  const [speakers, setSpeakers] = useState(() => {
    if (draft) return { first: draft.first, second: draft.second };
    const [first, second] = initialStances(Math.random());
    return { first: speaker(first), second: speaker(second) };
  });
  // 'You against a model': the user's side, who opens, and the model's settings.
  const [mode, setMode] = useState<EngineMode>(draft?.versus ? 'person' : 'models');
  const [personFor, setPersonFor] = useState(draft?.versus?.personFor ?? true);
  const [personOpens, setPersonOpens] = useState(draft?.versus?.personOpens ?? true);
  // A kept stance the gateway would refuse (a draft from before the rule) is brought in range.
  const [opponent, setOpponent] = useState(() => {
    const kept = draft?.versus?.opponent ?? speaker(0.6);
    return { ...kept, stance: opposingStance(kept.stance, personFor) };
  });
  const [askSignIn, setAskSignIn] = useState(false);
  const [askReplace, setAskReplace] = useState(false);
  const signedIn = auth === 'signedIn';
  const usage = useUsageQuery(undefined, { skip: !signedIn }).data;
  // The user's last debate, not saved yet, is shown again (after a reload, a sign-in).
  const unsaved = useUnsavedDebateQuery(undefined, {
    skip: !signedIn || engine.status !== 'idle',
  }).data;

  useEffect(() => {
    if (signedIn) preloadSubscriptionClient();
  }, [signedIn]);

  useEffect(() => {
    writeDraft(sessionStore(), {
      topic: typedTopic,
      debateFormat,
      moderatorEnabled,
      first: speakers.first,
      second: speakers.second,
      versus: mode === 'person' ? { personFor, personOpens, opponent } : null,
    });
  }, [
    typedTopic,
    debateFormat,
    moderatorEnabled,
    speakers,
    mode,
    personFor,
    personOpens,
    opponent,
  ]);

  // The run that was going when the page was left (a reload, a closed tab) is followed again:
  // its events, replayed from its start, bring back every turn, and a turn awaiting its person.
  useEffect(() => {
    if (!user || engine.status !== 'idle') return;
    const run = readFollowedRun(localStore(), user.uid);
    if (run) {
      void dispatch(followRun(run)).finally(() => dispatch(api.util.invalidateTags(['Usage'])));
    }
  }, [user, engine.status, dispatch]);

  useEffect(() => {
    if (unsaved && engine.status === 'idle') {
      dispatch(runRestored(unsaved));
    }
  }, [unsaved, engine.status, dispatch]);
  const following = useRef(true);
  // Under the last turn and the indicator: the stream's end, which following keeps in sight.
  const streamEnd = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (engine.status !== 'running') return undefined;
    following.current = true;
    // Any way of scrolling up (wheel, keys, the scrollbar, a finger, find in page) leaves the
    // stream; back down at its end, the page follows it again. The page itself only ever
    // scrolls down, and a turn that shrinks to its summary pulls the page up only at the end.
    let lastY = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      const end = streamEnd.current?.getBoundingClientRect().bottom ?? 0;
      const atEnd = end - window.innerHeight < FOLLOW_MARGIN_PX;
      if (y < lastY && !atEnd) following.current = false;
      else if (atEnd) following.current = true;
      lastY = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [engine.status]);
  const [titleHidden, setTitleHidden] = useState(false);
  const title = useRef<HTMLHeadingElement>(null);
  const topicId = useId();
  const running = engine.status === 'running';

  // The sticky topic header appears once the title has scrolled out of view.
  useEffect(() => {
    const element = title.current;
    if (!element || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(([entry]) => setTitleHidden(!entry?.isIntersecting));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const start = (request: RunRequest) => {
    void dispatch(runDebate(request)).finally(() => dispatch(api.util.invalidateTags(['Usage'])));
  };
  // Stop answers once the free debate is given back or settled: the count is read again then.
  const stop = (runId: string) => {
    void dispatch(stopDebate(runId)).finally(() => dispatch(api.util.invalidateTags(['Usage'])));
  };
  // A completed debate, or one stopped after a speaker's complete turn, can be saved.
  const saveable =
    engine.status === 'done' || (engine.status === 'stopped' && engine.freeDebateUsed === true);

  /**
   * A debate against the model `model`: the user's side a model of its own ('person', the
   * gateway names it by the user's display name), the model's stance on the other side.
   */
  const versusSettings = (model: SpeakerSettingsInput): DebateSettingsInput => {
    const person: SpeakerSettingsInput = {
      model: PERSON_MODEL_ID,
      stance: personFor ? PERSON_STANCE : -PERSON_STANCE,
      rhetoricStyle: 'standard',
      personality: '',
    };
    const against = { ...model, stance: opposingStance(model.stance, personFor) };
    return {
      topic,
      debateFormat,
      moderatorEnabled,
      first: personOpens ? person : against,
      second: personOpens ? against : person,
      person: personOpens ? 'FIRST' : 'SECOND',
    };
  };

  // A signed-out visitor is asked to sign in first, as Begin does.
  const chooseMode = (chosen: EngineMode) => {
    if (chosen === 'person' && auth !== 'signedIn') {
      setAskSignIn(true);
      return;
    }
    setMode(chosen);
  };
  // The model takes the other side: its stance's sign follows the user's choice.
  const chooseSide = (chosen: boolean) => {
    setPersonFor(chosen);
    setOpponent({ ...opponent, stance: opposingStance(opponent.stance, chosen) });
  };

  const begin = (replacing = false) => {
    if (auth !== 'signedIn') {
      setAskSignIn(true);
      return;
    }
    if (!data) return;
    // A finished debate not saved yet would be lost: asked first.
    if (!replacing && saveable && engine.runId && !engine.saved) {
      setAskReplace(true);
      return;
    }
    setAskReplace(false);
    // A choice the catalogue no longer offers is sent as its first model, as the select shows it.
    const given = (settings: SpeakerSettingsInput) => ({
      ...settings,
      model: chosenModel(data.models, settings.model),
    });
    const settings: DebateSettingsInput =
      mode === 'person'
        ? versusSettings(given(opponent))
        : {
            topic,
            debateFormat,
            moderatorEnabled,
            first: given(speakers.first),
            second: given(speakers.second),
          };
    start({ kind: 'new', settings });
  };

  // The button and Enter in the topic box alike.
  const canBegin = !running && topic.trim() !== '' && Boolean(data) && auth !== 'loading';
  const current = engine.current;
  // While it runs, the page follows the words as they come, unless the reader scrolled up.
  const streamed = engine.turns.length + (engine.turns.at(-1)?.text.length ?? 0);
  useEffect(() => {
    const end = streamEnd.current;
    // (jsdom has no scrollIntoView.)
    if (running && following.current && typeof end?.scrollIntoView === 'function') {
      end.scrollIntoView({ block: 'end' });
    }
  }, [running, streamed]);
  return (
    <section className="page" aria-labelledby="engine-heading">
      {titleHidden && (engine.topic ?? topic.trim()) && (
        <div className="sticky-topic" role="status" title={engine.topic ?? topic.trim()}>
          {engine.topic ?? topic.trim()}
        </div>
      )}
      <h1 id="engine-heading" ref={title}>
        AI Debate Engine
      </h1>
      <div className="topic-row">
        <label htmlFor={topicId}>Debate topic</label>
        <div className="topic-input">
          <input
            id={topicId}
            type="text"
            value={topic}
            maxLength={MAX_TOPIC_LENGTH}
            placeholder="Enter a topic to debate"
            disabled={running}
            onChange={(event) => setTopic(event.target.value)}
            // Enter begins, as the button does.
            onKeyDown={(event) => {
              if (event.key === 'Enter' && canBegin) begin();
            }}
          />
          <button
            type="button"
            className="button secondary"
            disabled={!data || running}
            onClick={() => data && setTopic(drawTopic(data.topics, topic, Math.random()))}
          >
            Random topic
          </button>
        </div>
        {topic.length >= TOPIC_COUNTER_FROM && (
          <p className="hint topic-counter" aria-live="polite">
            {topicCounterText(topic.length)}
          </p>
        )}
        {error ? (
          <p className="error" role="alert">
            The built-in topics could not be loaded: {'message' in error ? error.message : ''}
          </p>
        ) : null}
      </div>

      <ModeChoice mode={mode} disabled={running} onChoose={chooseMode} />

      <GlobalSettings
        debateFormat={debateFormat}
        debateFormats={data?.debateFormats ?? ['structured']}
        moderatorEnabled={moderatorEnabled}
        disabled={running}
        onDebateFormatChange={setDebateFormat}
        onModeratorChange={setModeratorEnabled}
      />

      {localModelLine && (
        <p className="hint local-model" role="status">
          {localModelLine}
        </p>
      )}
      {mode === 'person' ? (
        <div className="speakers">
          <PersonSetup
            personFor={personFor}
            personOpens={personOpens}
            disabled={running}
            onSideChange={chooseSide}
            onOpensChange={setPersonOpens}
          />
          <SpeakerCard
            name={personOpens ? 'Second Speaker' : 'First Speaker'}
            settings={opponent}
            models={data?.models ?? []}
            rhetoricStyles={data?.rhetoricStyles ?? ['standard']}
            disabled={running}
            stanceRange={opposingRange(personFor)}
            onChange={setOpponent}
          />
        </div>
      ) : (
        <div className="speakers">
          {(['first', 'second'] as const).map((key) => (
            <SpeakerCard
              key={key}
              name={key === 'first' ? 'First Speaker' : 'Second Speaker'}
              settings={speakers[key]}
              models={data?.models ?? []}
              rhetoricStyles={data?.rhetoricStyles ?? ['standard']}
              disabled={running}
              onChange={(settings) => setSpeakers({ ...speakers, [key]: settings })}
            />
          ))}
        </div>
      )}

      {auth === 'signedIn' && user?.mustVerifyEmail && <VerifyEmailNotice email={user.email} />}

      <button type="button" className="button begin" disabled={!canBegin} onClick={() => begin()}>
        {running ? 'discussion in progress...' : 'Begin discussion'}
      </button>
      {signedIn && usage && !running && (
        <p className="hint free-left">
          {freeDebatesLeftText(usage.freeDebatesRemaining)}
          <NextFreeDebate usage={usage} />
        </p>
      )}

      {engine.error && (
        <div className="error-box" role="alert">
          <p>{engine.error}</p>
          {engine.retry && (
            <button
              type="button"
              className="button secondary"
              onClick={() => {
                // The same start again (a new debate's settings, or the rematch), as it was.
                if (engine.retry) start(engine.retry);
              }}
            >
              Retry
            </button>
          )}
        </div>
      )}
      {engine.models && (
        <p
          className={`hint writers-note${
            engine.models.first.kind === OFFLINE_KIND || engine.models.second.kind === OFFLINE_KIND
              ? ' offline-note'
              : ''
          }`}
        >
          {whoWrites(engine.models.first, engine.models.second, engine.moderator).join(' ')}
        </p>
      )}
      {engine.rematchOf && engine.status !== 'idle' && (
        <p className="hint rematch-note">{REMATCH_NOTE}</p>
      )}
      {engine.turns.length > 0 && <RoundResults turns={engine.turns} />}
      {running && engine.runId && (
        <div className="run-controls">
          {current && !engine.awaiting && (
            <p className="loading run-status" role="status">
              {speakingText(current)}
            </p>
          )}
          <button
            type="button"
            className="button secondary stop-run"
            disabled={engine.stopping}
            onClick={() => engine.runId && stop(engine.runId)}
          >
            {engine.stopping ? 'Stopping…' : 'Stop'}
          </button>
        </div>
      )}
      {engine.status === 'stopped' && engine.freeDebateUsed !== null && (
        <p className="hint run-stopped" role="status">
          {engine.timedOutAfterMs === null
            ? stoppedText(engine.freeDebateUsed)
            : timedOutText(engine.timedOutAfterMs)}
        </p>
      )}
      <div ref={streamEnd} />
      {running && engine.judge && !engine.verdict && (
        <p className="loading" role="status">
          {judgingText(engine.judge.label)}
        </p>
      )}
      {engine.verdict && <Scorecard verdict={engine.verdict} />}
      {engine.status === 'done' && engine.judge && !engine.verdict && (
        <p className="hint judge-failed">{JUDGE_FAILED}</p>
      )}
      {engine.status === 'done' && !engine.judge && engine.turns.some((turn) => turn.failed) && (
        <p className="hint judge-failed">{NOT_JUDGED}</p>
      )}
      {saveable && engine.runId && (
        <SavePanel
          key={engine.runId}
          runId={engine.runId}
          categories={data?.categories ?? []}
          stopped={engine.status === 'stopped'}
        />
      )}
      {askReplace && (
        <Dialog labelledBy="replace-heading" onClose={() => setAskReplace(false)}>
          <h2 id="replace-heading">{REPLACE_HEADING}</h2>
          <p>{replaceText(engine.topic ?? '')}</p>
          <button type="button" className="button" onClick={() => begin(true)}>
            Begin anyway
          </button>{' '}
          <button
            type="button"
            className="button secondary"
            autoFocus
            onClick={() => setAskReplace(false)}
          >
            Keep it
          </button>
        </Dialog>
      )}
      {askSignIn && (
        <SignInDialog
          id="login-required-heading"
          heading="Sign in required"
          message="sign in for 2 free debate generations instantly!"
          onClose={() => setAskSignIn(false)}
        />
      )}
    </section>
  );
}
