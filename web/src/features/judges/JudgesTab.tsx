import { ListSkeleton } from '../../components/ListSkeleton';
import { LoadFailure } from '../../components/LoadFailure';
import { RelativeTime } from '../../components/RelativeTime';
import { FIGURE_COLUMNS, type FigureColumn, figureCell } from './figures';
import { type JudgeRecord, useJudgesQuery } from './judges.api';

const JUDGES_INTRO =
  'How far to trust the judges: how each judge model scores the shared debates, whether it is ' +
  'swayed by the order it reads the speakers in, by length or by its own model, and how often ' +
  'it agrees with the other judges and with the readers.';
export const EMPTY_JUDGES =
  'No judged debates yet: the judges’ record appears once shared debates have been judged.';
export const JUDGES_LOAD_FAILURE =
  'The judges’ record could not be loaded. Please try again later.';
export const JUDGES_CAPTION = 'Each judge’s record, with 95% intervals';
/** In place of an interval there are too few observations for (a bootstrap needs two). */
const NO_INTERVAL = '(too few for an interval)';

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/** One figure: its value, interval and count, or '—' and why there is no value. */
function FigureTd({ column, record }: { column: FigureColumn; record: JudgeRecord }) {
  const cell = figureCell(column, record);
  return (
    <td className="judge-figure">
      {cell.value === null ? (
        <>
          <span className="figure-value">—</span>{' '}
          <span className="figure-missing">{cell.missing}</span>
        </>
      ) : (
        <>
          <span className="figure-value">{cell.value}</span>{' '}
          <span className="figure-interval">{cell.interval ?? NO_INTERVAL}</span>
        </>
      )}{' '}
      <span className="figure-count">· {cell.count}</span>
    </td>
  );
}

/** A judge's name, and what it is: a model, or the offline judge's fixed rules. */
function JudgeName({ record }: { record: JudgeRecord }) {
  return (
    <th scope="row">
      {record.label}
      {record.kind === 'offline' && (
        // The space keeps the name and the tag two words for a screen reader.
        <>
          {' '}
          <span className="row-tag">fixed rules</span>
        </>
      )}
    </th>
  );
}

/**
 * The hub's fourth tab: the judges' own record (issue 40), per judge model and for all together,
 * as the community service last computed it in the background; every figure with its 95%
 * interval and what it is counted from.
 */
export function JudgesTab() {
  const { data, error, isFetching, refetch } = useJudgesQuery(undefined);
  const rows = data ? [...data.judges, data.all] : [];
  return (
    <div className="tab-panel judges">
      <h2>Judges</h2>
      <p className="hint">{JUDGES_INTRO}</p>
      {error ? (
        <LoadFailure
          message={JUDGES_LOAD_FAILURE}
          retrying={isFetching}
          onRetry={() => void refetch()}
        />
      ) : !data ? (
        <ListSkeleton label="Loading the judges’ record…" count={1} />
      ) : data.computedAt === null || data.judges.length === 0 ? (
        <p className="empty-state">{EMPTY_JUDGES}</p>
      ) : (
        <>
          <p className="hint judges-computed">
            Recomputed <RelativeTime iso={data.computedAt} /> from{' '}
            {plural(data.debates, 'judged debate')}. Intervals of κ and of the margins from{' '}
            {data.bootstrapRounds} bootstrap rounds.
          </p>
          {/* Scrolls inside its own box on a narrow screen; focusable so a keyboard can scroll it. */}
          <div className="judges-table-wrap" role="region" aria-label={JUDGES_CAPTION} tabIndex={0}>
            <table className="judges-table">
              <caption>{JUDGES_CAPTION}</caption>
              <thead>
                <tr>
                  <th scope="col">Judge</th>
                  <th scope="col">Debates</th>
                  {FIGURE_COLUMNS.map((column) => (
                    <th key={column.key} scope="col">
                      {column.heading}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((record) => (
                  <tr
                    key={record.judgeId ?? 'all'}
                    className={record.judgeId === null ? 'all-judges' : undefined}
                  >
                    <JudgeName record={record} />
                    <td>{record.debates}</td>
                    {FIGURE_COLUMNS.map((column) => (
                      <FigureTd key={column.key} column={column} record={record} />
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <section className="judges-legend" aria-labelledby="judges-legend-heading">
            <h3 id="judges-legend-heading">What the figures mean</h3>
            <dl>
              {FIGURE_COLUMNS.map((column) => (
                <div key={column.key}>
                  <dt>{column.heading}</dt>
                  <dd>{column.meaning}</dd>
                </div>
              ))}
            </dl>
            <p className="hint">
              Each judge reads a debate twice, the second time with the speakers swapped. Every
              figure shows its 95% interval in brackets and what it is counted from; the wider the
              interval, the less it says.
            </p>
          </section>
        </>
      )}
    </div>
  );
}
