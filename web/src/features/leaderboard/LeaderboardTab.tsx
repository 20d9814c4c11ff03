import { useState } from 'react';
import { ListSkeleton } from '../../components/ListSkeleton';
import { LoadFailure } from '../../components/LoadFailure';
import type { LeaderboardSubject } from '../../gql/graphql';
import { type LeaderboardRow, useLeaderboardQuery } from './leaderboard.api';

const SUBJECTS: ReadonlyArray<[LeaderboardSubject, string]> = [
  ['MODEL', 'Models'],
  ['SETUP', 'Single or team'],
  ['STYLE', 'Rhetoric styles'],
];

/** What a row names, per subject: the column's heading. */
const NAME_HEADING: Readonly<Record<LeaderboardSubject, string>> = {
  MODEL: 'Model',
  SETUP: 'Model and setup',
  STYLE: 'Style',
};

export const EMPTY_BOARD =
  'No ratings yet. The leaderboard is made of judged debates shared to the Community Forum: ' +
  'every debate is judged when it is written, and counts here once its author shares it.';
export const EMPTY_PAIRS =
  'No completed side-swapped pairs yet. A pair is a shared, judged debate and its rematch ' +
  '(each model on the other side), both shared.';
export const APART_HEADING = 'Rated apart: debates written by the offline speaker';
export const LOAD_FAILURE = 'The leaderboard could not be loaded. Please try again later.';

const whole = (value: number) => Math.round(value).toString();
/** A 95% interval, as the table shows it. */
const interval = (low: number, high: number) => `${whole(low)} – ${whole(high)}`;

interface BoardTableProps {
  readonly caption: string;
  readonly subject: LeaderboardSubject;
  readonly rows: readonly LeaderboardRow[];
}

/** One board: rank, name, rating and its interval, debates, pairs, the audience's rating. */
function BoardTable({ caption, subject, rows }: BoardTableProps) {
  return (
    // Scrolls inside its own box on a narrow screen; focusable so a keyboard can scroll it.
    <div className="leaderboard-table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table className="leaderboard-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Rank</th>
            <th scope="col">{NAME_HEADING[subject]}</th>
            <th scope="col">Rating</th>
            <th scope="col">95% interval</th>
            <th scope="col">Debates</th>
            <th scope="col">Pairs</th>
            <th scope="col">Audience</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={row.id}>
              <td>{index + 1}</td>
              <th scope="row">{row.label}</th>
              <td>{whole(row.rating)}</td>
              <td>{interval(row.low, row.high)}</td>
              <td>{row.debates}</td>
              <td>{row.pairs}</td>
              <td>
                {row.audience ? (
                  <span
                    title={`95% interval ${interval(row.audience.low, row.audience.high)}, from ${row.audience.debates} debates`}
                  >
                    {whole(row.audience.rating)}
                  </span>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/**
 * The hub's third tab: ratings of the models that wrote the shared, judged debates, or of the
 * rhetoric styles, from the judges' verdicts (and the audience's minds changed), as the
 * community service last computed them.
 */
export function LeaderboardTab() {
  const [subject, setSubject] = useState<LeaderboardSubject>('MODEL');
  const [pairsOnly, setPairsOnly] = useState(false);
  // While another board loads the last one stays, named as what it is (data.subject).
  const { data, error, isFetching, refetch } = useLeaderboardQuery({ subject, pairsOnly });
  const shown = data?.subject ?? subject;
  const subjectLabel = SUBJECTS.find(([value]) => value === shown)?.[1] ?? '';

  return (
    <div className="tab-panel leaderboard">
      <h2>Leaderboard</h2>
      <p className="hint">
        Ratings from the judges’ verdicts on shared debates: Bradley-Terry, a tie half a win each
        way, 1000 for an average debater, with 95% intervals. Audience: the same, from which side
        changed more minds among the readers.
      </p>
      <div className="filters">
        <div className="segmented" role="group" aria-label="Rate">
          {SUBJECTS.map(([value, label]) => (
            <button
              key={value}
              type="button"
              className={`segment${subject === value ? ' active' : ''}`}
              aria-pressed={subject === value}
              onClick={() => setSubject(value)}
            >
              {label}
            </button>
          ))}
        </div>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={pairsOnly}
            onChange={(event) => setPairsOnly(event.target.checked)}
          />{' '}
          Only side-swapped pairs
        </label>
      </div>
      {error ? (
        <LoadFailure message={LOAD_FAILURE} retrying={isFetching} onRetry={() => void refetch()} />
      ) : !data ? (
        <ListSkeleton label="Loading the leaderboard…" count={1} />
      ) : data.rows.length === 0 && data.apart.length === 0 ? (
        <p className="empty-state">{data.pairsOnly ? EMPTY_PAIRS : EMPTY_BOARD}</p>
      ) : (
        <>
          {data.rows.length > 0 ? (
            <BoardTable
              caption={`${subjectLabel}: ${plural(data.debates, 'judged debate')}`}
              subject={shown}
              rows={data.rows}
            />
          ) : (
            <p className="hint">No debate written by models on both sides yet.</p>
          )}
          {data.apart.length > 0 && (
            <section className="leaderboard-apart" aria-labelledby="leaderboard-apart-heading">
              <h3 id="leaderboard-apart-heading">{APART_HEADING}</h3>
              <BoardTable
                caption={`${subjectLabel}, offline speaker: ${plural(data.apartDebates, 'judged debate')}`}
                subject={shown}
                rows={data.apart}
              />
            </section>
          )}
          <p className="hint leaderboard-notes">
            {data.notRated.sameSubject > 0 &&
              `Not rated: ${plural(data.notRated.sameSubject, 'debate')} with the same ${NAME_HEADING[shown].toLowerCase()} on both sides. `}
            {data.notRated.notRecorded > 0 &&
              `Not rated: ${plural(data.notRated.notRecorded, 'debate')} saved before ratings. `}
            {data.notRated.personalityHints > 0 &&
              `Not rated: ${plural(data.notRated.personalityHints, 'debate')} with personality hints. `}
            {data.notRated.dailyLimit > 0 &&
              `Not rated: ${plural(data.notRated.dailyLimit, 'debate')} over the daily limit for their pairing. `}
            {data.computedAt &&
              `Intervals from ${data.bootstrapRounds} bootstrap rounds; updated ${new Date(data.computedAt).toLocaleString()}.`}
          </p>
        </>
      )}
    </div>
  );
}
