import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { CategoryChips, SpeakerFacts } from '../debates/DebateParts';
import { DebateRounds } from '../debates/DebateRounds';
import { Scorecard } from '../debates/Scorecard';
import { downloadMarkdown } from '../debates/markdown';
import { useCommunityDebateQuery } from './community.api';
import { sharedDate } from './DebateCard';

/** /community/debate/:id: one shared debate, open to anyone, with its Markdown export. */
export function DebatePage() {
  const { id = '' } = useParams();
  const { data, error, isLoading } = useCommunityDebateQuery(id);

  useEffect(() => {
    if (data) document.title = `${data.topic} - AI Debate`;
  }, [data]);

  if (isLoading) {
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
  const shared = sharedDate(data.sharedAt);
  return (
    <section className="page" aria-labelledby="debate-topic">
      <p>
        <Link to="/community/ranking">← Community Forum</Link>
      </p>
      <h1 id="debate-topic">{data.topic}</h1>
      <CategoryChips categories={data.categories} />
      <p className="shared-line">
        Shared {shared} by {data.userDisplayName} · For {data.upvotes} · Interesting{' '}
        {data.interesting} · Against {data.downvotes} · {data.views} views
      </p>
      <SpeakerFacts model1={data.model1} model2={data.model2} detailed />
      <button type="button" className="button secondary" onClick={() => downloadMarkdown(data)}>
        Export as Markdown
      </button>
      <DebateRounds rounds={data.rounds} />
      {data.verdict && <Scorecard verdict={data.verdict} />}
    </section>
  );
}
