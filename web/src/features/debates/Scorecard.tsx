import { MAX_VERDICT_TOTAL } from '@debate/contracts/constants';
import { useId } from 'react';
import { judgeDetails } from './provenance';
import {
  formatPoints,
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

/**
 * The judges' scorecard (the engine, a debate's page): the winner or the tie and why, the four
 * criteria with their weights × the two speakers (score and reason), the totals, how each
 * reading went, and who judged. A card of its own, or, `inCard` (an open debate in the
 * history), a section of the card that holds it.
 */
export function Scorecard({ verdict, inCard = false }: { verdict: Verdict; inCard?: boolean }) {
  const headingId = useId();
  return (
    <section
      className={`${inCard ? 'card-section' : 'card'} scorecard`}
      aria-labelledby={headingId}
    >
      <h2 id={headingId}>The judges’ scorecard</h2>
      <p className="verdict-headline">{verdictHeadline(verdict)}</p>
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
