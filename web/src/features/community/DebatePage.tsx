import { authorName } from '@debate/contracts/constants';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { RelativeTime } from '../../components/RelativeTime';
import { SignInDialog } from '../../components/SignInDialog';
import { copyLink } from '../../components/copyLink';
import type { VoteKind } from '../../gql/graphql';
import { CategoryChips, SpeakerFacts, StoppedNote } from '../debates/DebateParts';
import { DebateRounds } from '../debates/DebateRounds';
import { Scorecard, VerdictLine } from '../debates/Scorecard';
import { downloadMarkdown } from '../debates/markdown';
import { useCommunityDebateQuery, useVoteMutation } from './community.api';
import { EXAMPLE_NOTE, ProblemLine, ratingSuffix, speakersLine } from './DebateCard';
import { BeforeQuestion } from './BeforeQuestion';
import { SITE_NAME } from '../../app/titles';
import { MindsChangedPanel } from './MindsChangedPanel';
import { useStars } from './stars';
import { type CardProblem, messageOf, STAR_FAILED, VOTE_FAILED, VOTE_KINDS } from './votes';

/** '1 view', '2 views'. */
function viewsText(views: number): string {
  return views === 1 ? '1 view' : `${views} views`;
}

/**
 * /community/debate/:id: one shared debate, open to anyone, with its Markdown export. A
 * signed-in reader is first asked where they stand; their vote after reading counts in minds
 * changed.
 */
export function DebatePage() {
  const { id = '' } = useParams();
  const auth = useAppSelector((state) => state.auth);
  const viewer = auth.status === 'signedIn' ? (auth.user?.uid ?? null) : null;
  // Read once the sign-in state is known (a signed-in reader is asked first), and afresh on
  // each visit: a card's copy may be older than a vote since.
  const args = { id, viewer };
  const { data, error, isLoading } = useCommunityDebateQuery(args, {
    skip: auth.status === 'loading' && auth.lastUserLoggedIn,
    refetchOnMountOrArgChange: true,
  });
  const [vote, { isLoading: voting }] = useVoteMutation();
  // A failed star (by the title) or vote (by the buttons), shown where it failed.
  const [starProblem, setStarProblem] = useState<CardProblem | null>(null);
  const [voteProblem, setVoteProblem] = useState<CardProblem | null>(null);
  const [askSignIn, setAskSignIn] = useState(false);

  useEffect(() => {
    if (data) document.title = `${data.topic} - ${SITE_NAME}`;
  }, [data]);

  const stars = useStars();
  const starred = stars.ids.includes(id);
  const [copied, setCopied] = useState<string | null>(null);

  const onStar = async () => {
    setStarProblem(null);
    try {
      await stars.toggle(id, starred);
    } catch (failure) {
      setStarProblem({ message: messageOf(failure, STAR_FAILED), retry: () => void onStar() });
    }
  };

  const onCopy = async () => setCopied(await copyLink(window.location.href));

  /** The vote shows at once and goes back if refused (the mutation's optimistic update). */
  const onVote = async (kind: VoteKind | null) => {
    if (!viewer) {
      setAskSignIn(true);
      return;
    }
    setVoteProblem(null);
    try {
      await vote({ ...args, kind }).unwrap();
    } catch (failure) {
      setVoteProblem({ message: messageOf(failure, VOTE_FAILED), retry: () => void onVote(kind) });
    }
  };

  if (isLoading || (!data && !error)) {
    return (
      <section className="page" aria-label="Debate">
        <p role="status">Loading debate rounds...</p>
      </section>
    );
  }
  if (error || !data) {
    const notFound = !error || ('code' in error && error.code === 'NOT_FOUND');
    return (
      <section className="page" aria-labelledby="debate-missing">
        <h1 id="debate-missing">
          {notFound ? 'Debate not found.' : 'Error fetching debate rounds.'}
        </h1>
        <Link to="/community/ranking">Back to the Community Forum</Link>
      </section>
    );
  }
  const pair = data.pairedWith;
  const author = authorName(data.userDisplayName);
  return (
    <section className="page" aria-labelledby="debate-topic">
      <p>
        <Link to="/community/ranking">← Community Forum</Link>
      </p>
      <div className="debate-card-head">
        <h1 id="debate-topic">{data.topic}</h1>
        <button
          type="button"
          className={`star-toggle${starred ? ' starred' : ''}`}
          aria-pressed={starred}
          aria-label={starred ? 'Unstar debate' : 'Star debate'}
          onClick={() => void onStar()}
        >
          {starred ? '★' : '☆'}
        </button>
      </div>
      {starProblem && <ProblemLine problem={starProblem} />}
      <p className="card-actions">
        <button type="button" className="button secondary" onClick={() => void onCopy()}>
          Copy link
        </button>
        {copied && (
          <span className="hint" role="status">
            {copied}
          </span>
        )}
      </p>
      <CategoryChips categories={data.categories} />
      {data.example && <p className="hint example-line">{EXAMPLE_NOTE}</p>}
      <p className="shared-line">
        Shared <RelativeTime iso={data.sharedAt} />
        {author ? ` by ${author}` : ''} · For {data.upvotes} · Interesting {data.interesting} ·
        Against {data.downvotes} · {viewsText(data.views)}
        {ratingSuffix(data.rating)}
      </p>
      <SpeakerFacts model1={data.model1} model2={data.model2} detailed />
      <StoppedNote stopped={data.stopped} />
      {data.askBefore ? (
        <BeforeQuestion args={args} />
      ) : (
        <>
          <button type="button" className="button secondary" onClick={() => downloadMarkdown(data)}>
            Export as Markdown
          </button>
          <DebateRounds rounds={data.rounds} sides={data} />
          {data.verdict && (
            <Scorecard
              verdict={data.verdict}
              readers={
                data.mindsChanged.shares && {
                  gained: data.mindsChanged.shares.gainedReaders,
                  stances: { first: data.model1.stance, second: data.model2.stance },
                }
              }
            />
          )}
          <section className="card after-vote" aria-labelledby="after-vote">
            <h2 id="after-vote">Where do you stand now?</h2>
            <div className="vote-buttons" role="group" aria-label="Vote">
              {VOTE_KINDS.map(({ kind, label, count }) => (
                <button
                  key={kind}
                  type="button"
                  className={`vote-button${data.myVote === kind ? ' voted' : ''}`}
                  aria-pressed={data.myVote === kind}
                  disabled={voting}
                  onClick={() => void onVote(data.myVote === kind ? null : kind)}
                >
                  {label} {data[count]}
                </button>
              ))}
            </div>
            {voteProblem && <ProblemLine problem={voteProblem} />}
          </section>
        </>
      )}
      <MindsChangedPanel minds={data.mindsChanged} />
      {pair && (
        <section className="card pair" aria-labelledby="pair-heading">
          <h2 id="pair-heading">
            {pair.isRematch ? 'Its rematch, the sides swapped' : 'The debate this one rematches'}
          </h2>
          <p className="hint">
            The same motion, each model on the other side: {speakersLine(pair)}.
          </p>
          <VerdictLine verdict={pair.verdict} />
          <Link to={`/community/debate/${encodeURIComponent(pair.id)}`}>
            {pair.isRematch ? 'Read the rematch' : 'Read the first debate'}
          </Link>
        </section>
      )}
      {askSignIn && (
        <SignInDialog
          id="vote-login-heading"
          heading="Sign in to vote"
          message="You need to be logged in to vote on debates."
          onClose={() => setAskSignIn(false)}
        />
      )}
    </section>
  );
}
