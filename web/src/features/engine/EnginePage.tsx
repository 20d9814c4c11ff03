import { useId, useState } from 'react';
import { useCatalogQuery } from './catalog.api';

/** Draws a topic other than `current` when there is one. */
export function drawTopic(topics: readonly string[], current: string, random: number): string {
  const others = topics.filter((topic) => topic !== current);
  const pool = others.length > 0 ? others : topics;
  return pool[Math.floor(random * pool.length)] ?? current;
}

/** /engine: the debate generator. The speakers and the run arrive with issue #5. */
export function EnginePage() {
  const { data, error, isLoading } = useCatalogQuery(undefined);
  const [topic, setTopic] = useState('');
  const topicId = useId();

  return (
    <section className="page" aria-labelledby="engine-heading">
      <h1 id="engine-heading">AI Debate Engine</h1>
      <div className="topic-row">
        <label htmlFor={topicId}>Debate topic</label>
        <div className="topic-input">
          <input
            id={topicId}
            type="text"
            value={topic}
            placeholder="Enter a topic to debate"
            onChange={(event) => setTopic(event.target.value)}
          />
          <button
            type="button"
            className="button secondary"
            disabled={!data}
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
    </section>
  );
}
