import { MAX_VERDICT_TOTAL } from '@debate/contracts/constants';
import { useId } from 'react';
import { judgeDetails } from './provenance';
import type { SideStances } from './sides';
import {
  formatPoints,
  type GainedReaders,
  judgesAndReadersDisagree,
  judgesVerdictText,
  readersVerdictText,
  readingsAgreementText,
  readingText,
  type ScoreCell,
  scorecardRows,
  type Verdict,
  verdictCardLine,
  verdictHeadline,
  type VerdictSummary,
} from './verdict';

function Cell({ cell }: { cell: ScoreCell | null }) {
  if (!cell) return <td className="score-cell">—</td>;
  return (
    <td className="score-cell">
      <strong className="score">{formatPoints(cell.score)}</strong>{' '}
      <span className="reason">{cell.reason}</span>
    </td>
  );
}

/** What the readers made of a shared debate: each side's gain in readers, and who argued For. */
export interface ReadersOfDebate {
  readonly gained: GainedReaders;
  readonly stances: SideStances;
}

/** The mark of a scorecard whose readers moved toward another side than the judges' winner's. */
export const DISAGREE_MARK = 'Judges and readers disagree';

/** The judges' verdict as For or Against, the readers' beside it, and the mark when they differ. */
function ReadersVerdict({ verdict, readers }: { verdict: Verdict; readers: ReadersOfDebate }) {
  const disagree = judgesAndReadersDisagree(verdict, readers.stances, readers.gained);
  return (
    <div className={`judges-and-readers${disagree ? ' disagree' : ''}`}>
      <p>{judgesVerdictText(verdict, readers.stances)}</p>
      <p>{readersVerdictText(readers.gained)}</p>
      {disagree && <p className="disagree-mark">{DISAGREE_MARK}</p>}
    </div>
  );
}

/**
 * The judges' scorecard (the engine, a debate's page): the winner or the tie and why, beside it
 * the readers' verdict when the debate has one (`readers`, a shared debate's minds changed), the
 * four criteria with their weights × the two speakers (score and reason), the totals, how each
 * reading went and whether they agreed, and who judged. A card of its own, or, `inCard` (an open
 * debate in the history), a section of the card that holds it.
 */
export function Scorecard({
  verdict,
  inCard = false,
  readers = null,
}: {
  verdict: Verdict;
  inCard?: boolean;
  readers?: ReadersOfDebate | null;
}) {
  const headingId = useId();
  const agreement = readingsAgreementText(verdict);
  return (
    <section
      className={`${inCard ? 'card-section' : 'card'} scorecard`}
      aria-labelledby={headingId}
    >
      <h2 id={headingId}>The judges’ scorecard</h2>
      <p className="verdict-headline">{verdictHeadline(verdict)}</p>
      {readers && <ReadersVerdict verdict={verdict} readers={readers} />}
      <div className="scorecard-table-wrap">
        <table className="scorecard-table">
          <caption className="hint">
            Scores 1 to 10, each the mean of two readings; totals weighted, at most{' '}
            {formatPoints(MAX_VERDICT_TOTAL)}.
          </caption>
          <thead>
            <tr>
              <th scope="col">Criterion</th>
              <th scope="col">First Speaker</th>
              <th scope="col">Second Speaker</th>
            </tr>
          </thead>
          <tbody>
            {scorecardRows(verdict).map((row) => (
              <tr key={row.criterion}>
                <th scope="row">{row.label}</th>
                <Cell cell={row.first} />
                <Cell cell={row.second} />
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td className="total">{formatPoints(verdict.firstTotal)}</td>
              <td className="total">{formatPoints(verdict.secondTotal)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      {agreement && <p className="hint readings-agreement">{agreement}</p>}
      {verdict.readings.length > 0 && (
        <ul className="readings hint">
          {verdict.readings.map((reading) => (
            <li key={reading.order}>{readingText(reading)}</li>
          ))}
        </ul>
      )}
      <p className="hint judged-by">Judge: {judgeDetails(verdict.judgedBy)}</p>
    </section>
  );
}

/** A card's one line of the verdict; nothing for a debate that was not judged. */
export function VerdictLine({ verdict }: { verdict: VerdictSummary | null | undefined }) {
  if (!verdict) return null;
  return <p className="hint verdict-line">{verdictCardLine(verdict)}</p>;
}
