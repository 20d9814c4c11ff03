import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ListSkeleton } from '../../components/ListSkeleton';
import { LoadFailure } from '../../components/LoadFailure';
import type { LeaderboardSubject } from '../../gql/graphql';
import { type Leaderboard, type LeaderboardRow, useLeaderboardQuery } from './leaderboard.api';

const SUBJECTS: ReadonlyArray<[LeaderboardSubject, string]> = [
  ['MODEL', 'Models'],
  ['SETUP', 'Single or team'],
  ['STYLE', 'Rhetoric styles'],
  ['PEOPLE', 'People vs models'],
];

/** A board as the address names it (`?board=styles`): a link opens on it. */
const BOARD_PARAM: Readonly<Record<LeaderboardSubject, string>> = {
  MODEL: 'models',
  SETUP: 'setups',
  STYLE: 'styles',
  PEOPLE: 'people',
};

function boardOf(params: URLSearchParams): LeaderboardSubject | null {
  const named = params.get('board');
  return SUBJECTS.find(([value]) => BOARD_PARAM[value] === named)?.[0] ?? null;
}

/** The address's parameter that asks for the boards controlled for length (`?controlled=1`). */
const CONTROLLED_PARAM = 'controlled';

/** Whether a board rates anything: a table, the main one or the one apart. */
const hasRatings = (board: Leaderboard) => board.rows.length > 0 || board.apart.length > 0;

/** What a probe of one board (all debates) has answered so far. */
interface Probe {
  readonly data?: Leaderboard | undefined;
  readonly isError: boolean;
}

/**
 * The board to open on: the first, in the switch's order, that rates anything, once every board
 * before it has answered (one that fails counts as empty); Models when none does. Null while
 * that is not known yet.
 */
function openingBoard(
  probes: ReadonlyArray<readonly [LeaderboardSubject, Probe]>,
): LeaderboardSubject | null {
  for (const [subject, { data, isError }] of probes) {
    if (data && hasRatings(data)) return subject;
    if (!data && !isError) return null;
  }
  return 'MODEL';
}

/** What a row names, per subject: the column's heading. */
const NAME_HEADING: Readonly<Record<LeaderboardSubject, string>> = {
  MODEL: 'Model',
  SETUP: 'Model and setup',
  STYLE: 'Style',
  PEOPLE: 'Debater',
};

export const EMPTY_BOARD =
  'No ratings yet. The leaderboard is made of judged debates shared to the Community Forum: ' +
  'every debate is judged when it is written, and counts here once its author shares it.';
export const EMPTY_PAIRS =
  'No completed side-swapped pairs yet. A pair is a shared, judged debate and its rematch ' +
  '(each model on the other side), both shared.';
export const APART_HEADING = 'Rated apart: debates written by the offline speaker';
export const LOAD_FAILURE = 'The leaderboard could not be loaded. Please try again later.';
export const PEOPLE_NOTE = 'People: every person’s side pooled, listed or not.';
export const CONTROL_LABEL = 'Control for length';
export const CONTROLLED_NOTE =
  'Ratings controlled for length (Bradley-Terry with the word-count difference as a covariate) ' +
  'and for where the room started (each side’s gain relative to its room to grow).';
/** The small tag beside a person's name on the People board. */
export const PERSON_TAG = 'person';

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
            <tr key={row.id} className={row.kind === 'PEOPLE' ? 'people-row' : undefined}>
              <td>{index + 1}</td>
              <th scope="row">
                {row.label}
                {row.kind === 'PERSON' && (
                  // The space keeps the name and the tag two words for a screen reader.
                  <>
                    {' '}
                    <span className="row-tag">{PERSON_TAG}</span>
                  </>
                )}
              </th>
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
 * The hub's third tab: ratings of the models that wrote the shared, judged debates, of their
 * setups, of the rhetoric styles, or of the people who debated a model against the models, from
 * the judges' verdicts (and the audience's minds changed), as the community service last
 * computed them.
 */
export function LeaderboardTab() {
  const [params, setParams] = useSearchParams();
  // The user's choice (kept in the address, so a link to a board opens on it) wins; without
  // one, the tab opens on the first board that rates anything, decided once.
  const chosen = boardOf(params);
  const [opening, setOpening] = useState<LeaderboardSubject | null>(null);
  const [pairsOnly, setPairsOnly] = useState(false);
  // Kept in the address too, so that a link to the controlled boards opens on them; held here as
  // well, so that the box changes as it is clicked (the address changes in a later render).
  const [controlled, setControlled] = useState(() => params.get(CONTROLLED_PARAM) === '1');
  const probing = chosen === null && opening === null;
  // Each board of the switch, in its order (SUBJECTS'), asked at once while the opening is open.
  const all = (subject: LeaderboardSubject) => ({ subject, pairsOnly: false, controlled });
  const probes = [
    ['MODEL', useLeaderboardQuery(all('MODEL'), { skip: !probing })],
    ['SETUP', useLeaderboardQuery(all('SETUP'), { skip: !probing })],
    ['STYLE', useLeaderboardQuery(all('STYLE'), { skip: !probing })],
    ['PEOPLE', useLeaderboardQuery(all('PEOPLE'), { skip: !probing })],
  ] as const;
  const decided = probing ? openingBoard(probes) : null;
  if (decided !== null) setOpening(decided);
  const subject = chosen ?? opening ?? decided;
  const updateParams = (change: (next: URLSearchParams) => void) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        change(next);
        return next;
      },
      { replace: true },
    );
  const choose = (value: LeaderboardSubject) =>
    updateParams((next) => next.set('board', BOARD_PARAM[value]));
  const control = (on: boolean) => {
    setControlled(on);
    updateParams((next) => (on ? next.set(CONTROLLED_PARAM, '1') : next.delete(CONTROLLED_PARAM)));
  };
  // A person's debate has no rematch: the People board is never of pairs only (nor offers it).
  const pairable = subject !== 'PEOPLE';
  // While another board loads the last one stays, named as what it is (data.subject). The
  // opening board is one of the probes' boards: its answer is already in the cache.
  const { data, error, isFetching, refetch } = useLeaderboardQuery(
    { subject: subject ?? 'MODEL', pairsOnly: pairable && pairsOnly, controlled },
    { skip: subject === null },
  );
  const shown = data?.subject ?? subject ?? 'MODEL';
  const subjectLabel = SUBJECTS.find(([value]) => value === shown)?.[1] ?? '';

  return (
    <div className="tab-panel leaderboard">
      <h2>Leaderboard</h2>
      <p className="hint">
        Which models, setups and rhetoric styles win the debates shared to the Community Forum, as
        the judges scored them: the higher the rating, the more often it wins.
      </p>
      <details className="leaderboard-method">
        <summary>How the ratings are computed</summary>
        <p className="hint">
          Bradley-Terry over the judges’ verdicts, a tie half a win each way, 1000 for an average
          debater, with 95% intervals. Audience: the same, from which side changed more minds among
          the readers. Controlled for length: the judges’ fit also weighs the sides’ word-count
          difference, and the audience’s winner is the side that gained more of its room to grow.
        </p>
      </details>
      <div className="filters">
        <div className="segmented" role="group" aria-label="Rate">
          {SUBJECTS.map(([value, label]) => (
            <button
              key={value}
              type="button"
              className={`segment${subject === value ? ' active' : ''}`}
              aria-pressed={subject === value}
              onClick={() => choose(value)}
            >
              {label}
            </button>
          ))}
        </div>
        {pairable && (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={pairsOnly}
              onChange={(event) => setPairsOnly(event.target.checked)}
            />
            Only side-swapped pairs
          </label>
        )}
        <label className="checkbox">
          <input
            type="checkbox"
            checked={controlled}
            onChange={(event) => control(event.target.checked)}
          />
          {CONTROL_LABEL}
        </label>
      </div>
      {error ? (
        <LoadFailure message={LOAD_FAILURE} retrying={isFetching} onRetry={() => void refetch()} />
      ) : !data ? (
        <ListSkeleton label="Loading the leaderboard…" count={1} />
      ) : !hasRatings(data) ? (
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
            <p className="hint">
              {shown === 'PEOPLE'
                ? 'No debate of a person against a model other than the offline speaker yet.'
                : 'No debate written by models on both sides yet.'}
            </p>
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
          {data.controlled && <p className="hint leaderboard-notes">{CONTROLLED_NOTE}</p>}
          {[...data.rows, ...data.apart].some((row) => row.kind === 'PEOPLE') && (
            <p className="hint leaderboard-notes">{PEOPLE_NOTE}</p>
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
