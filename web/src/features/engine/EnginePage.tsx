import { useEffect, useId, useRef, useState } from 'react';
import { api } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { SignInDialog } from '../../components/SignInDialog';
import type { DebateSettingsInput, SpeakerSettingsInput } from '../../gql/graphql';
import { OFFLINE_KIND } from '../debates/provenance';
import { Scorecard } from '../debates/Scorecard';
import { useCatalogQuery } from './catalog.api';
import { RoundResults } from './components/RoundResults';
import { SavePanel } from './components/SavePanel';
import { SpeakerCard } from './components/SpeakerCard';
import { VerifyEmailNotice } from './components/VerifyEmailNotice';
import { runDebate } from './engine.slice';
import { chosenModel, whoWrites } from './models';
import { initialStances } from './stance';

/** Draws a topic other than `current` when there is one. */
export function drawTopic(topics: readonly string[], current: string, random: number): string {
  const others = topics.filter((topic) => topic !== current);
  const pool = others.length > 0 ? others : topics;
  return pool[Math.floor(random * pool.length)] ?? current;
}

/** While the judge reads, after the Summary round: 'The judges are reading the debate… (Offline judge)'. */
export function judgingText(judge: string): string {
  return `The judges are reading the debate… (${judge})`;
}

/** Over a rematch's run: what it is. */
export const REMATCH_NOTE =
  'The side-swapped rematch of your debate: the same motion, format and sides, each model now on the other side. Saved and shared with its first debate, each one’s page shows the other.';

/** A speaker's turn could not be written: the debate is not judged. */
export const NOT_JUDGED =
  'Not judged: a speaker’s turn could not be written, and the judges score complete debates only.';

/** The run ended without a scorecard: the judge could not score it. */
export const JUDGE_FAILED = 'The judge could not score this debate.';

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
  const { data, error, isLoading } = useCatalogQuery(undefined);
  const auth = useAppSelector((state) => state.auth.status);
  const user = useAppSelector((state) => state.auth.user);
  const engine = useAppSelector((state) => state.engine);
  const [typedTopic, setTopic] = useState('');
  // A rematch started from the history shows its motion until another is typed.
  const topic = engine.rematchOf && engine.topic && typedTopic === '' ? engine.topic : typedTopic;
  const [debateFormat, setDebateFormat] = useState('structured');
  const [moderatorEnabled, setModeratorEnabled] = useState(false);
  const [globalOpen, setGlobalOpen] = useState(false);
  const [speakers, setSpeakers] = useState(() => {
    const [first, second] = initialStances(Math.random());
    return { first: speaker(first), second: speaker(second) };
  });
  const [askSignIn, setAskSignIn] = useState(false);
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

  const begin = () => {
    if (auth !== 'signedIn') {
      setAskSignIn(true);
      return;
    }
    if (!data) return;
    // A choice the catalogue no longer offers is sent as its first model, as the select shows it.
    const given = (settings: SpeakerSettingsInput) => ({
      ...settings,
      model: chosenModel(data.models, settings.model),
    });
    const settings: DebateSettingsInput = {
      topic,
      debateFormat,
      moderatorEnabled,
      first: given(speakers.first),
      second: given(speakers.second),
    };
    void dispatch(runDebate({ kind: 'new', settings })).finally(() =>
      dispatch(api.util.invalidateTags(['Usage'])),
    );
  };

  const current = engine.current;
  return (
    <section className="page" aria-labelledby="engine-heading">
      {titleHidden && (engine.topic ?? topic.trim()) && (
        <div className="sticky-topic" role="status">
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
            maxLength={500}
            placeholder="Enter a topic to debate"
            disabled={running}
            onChange={(event) => setTopic(event.target.value)}
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
        {isLoading ? <p className="hint">Loading the built-in topics…</p> : null}
        {error ? (
          <p className="error" role="alert">
            The built-in topics could not be loaded: {'message' in error ? error.message : ''}
          </p>
        ) : null}
      </div>

      <section className="card" aria-labelledby="global-settings">
        <button
          id="global-settings"
          type="button"
          className="link-button section-toggle"
          aria-expanded={globalOpen}
          aria-controls="global-settings-panel"
          onClick={() => setGlobalOpen(!globalOpen)}
        >
          Global Settings
        </button>
        {globalOpen && (
          <div id="global-settings-panel" className="speaker-settings">
            <label htmlFor="debate-format">Debate format</label>
            <select
              id="debate-format"
              value={debateFormat}
              disabled={running}
              onChange={(event) => setDebateFormat(event.target.value)}
            >
              {(data?.debateFormats ?? ['structured']).map((format) => (
                <option key={format}>{format}</option>
              ))}
            </select>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={moderatorEnabled}
                disabled={running}
                onChange={(event) => setModeratorEnabled(event.target.checked)}
              />{' '}
              Moderator
            </label>
          </div>
        )}
      </section>

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

      {auth === 'signedIn' && user?.mustVerifyEmail && <VerifyEmailNotice email={user.email} />}

      <button
        type="button"
        className="button begin"
        disabled={running || topic.trim() === '' || !data}
        onClick={begin}
      >
        {running ? 'discussion in progress...' : 'Begin discussion'}
      </button>

      {running && current && (
        <p className="loading" role="status">
          {current.speaker} is speaking: Round {current.round}, {current.roundTitle}
        </p>
      )}
      {engine.error && (
        <div className="error-box" role="alert">
          <p>{engine.error}</p>
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
      {engine.status === 'done' && engine.runId && (
        <SavePanel key={engine.runId} runId={engine.runId} categories={data?.categories ?? []} />
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
