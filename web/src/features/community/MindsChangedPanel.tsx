import { useId } from 'react';
import {
  type MindsChanged,
  mindsChangedLine,
  readersSoFarText,
  roomWinnerText,
  signedPoints,
} from './minds';

/** A card's one line of minds changed; none until a reader has answered both questions. */
export function MindsChangedLine({ minds }: { minds: MindsChanged }) {
  if (minds.readers === 0) return null;
  return <p className="hint minds-line">{mindsChangedLine(minds)}</p>;
}

/** A debate page's minds changed: a table of before → after and the gains, and the winner. */
export function MindsChangedPanel({ minds }: { minds: MindsChanged }) {
  const headingId = useId();
  const { shares } = minds;
  return (
    <section className="card minds-changed" aria-labelledby={headingId}>
      <h2 id={headingId}>Minds changed</h2>
      {shares ? (
        <>
          <p className="minds-winner">{roomWinnerText(shares.winner)}</p>
          <table className="minds-table">
            <caption className="hint">
              Among the {minds.readers} readers who said where they stood before reading and voted
              For or Against after.
            </caption>
            <thead>
              <tr>
                <th scope="col">Side</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
                <th scope="col">Gain</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">For</th>
                <td>{shares.before.for}%</td>
                <td>{shares.after.for}%</td>
                <td>{signedPoints(shares.gain.for)} pts</td>
              </tr>
              <tr>
                <th scope="row">Against</th>
                <td>{shares.before.against}%</td>
                <td>{shares.after.against}%</td>
                <td>{signedPoints(shares.gain.against)} pts</td>
              </tr>
              <tr>
                <th scope="row">Undecided</th>
                <td>{shares.before.undecided ?? 0}%</td>
                <td>—</td>
                <td>—</td>
              </tr>
            </tbody>
          </table>
        </>
      ) : (
        <p className="hint">{readersSoFarText(minds.readers)}</p>
      )}
    </section>
  );
}
