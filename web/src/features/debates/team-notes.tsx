import type { TeamNotesFieldsFragment } from '../../gql/graphql';

/** How a speaker team made a speech, as the engine, a debate's page and the export show it. */
export type TeamNotesFields = TeamNotesFieldsFragment;

export const TEAM_NOTES_HEADING = 'How this speech was made';
export const SOURCES_HEADING = 'Sources the searcher found (cited as [n]):';
export const NO_SOURCES = 'The searcher found no sources for this speech.';

/** What the reviewer did: accepted the first draft, asked for fixes, or could not review it. */
export function reviewText(team: TeamNotesFields): string {
  if (team.review === 'failed')
    return 'The reviewer could not review the draft: it stands as written.';
  if (team.fixes.length === 0) return 'The reviewer accepted the first draft.';
  return team.revised
    ? 'The reviewer asked for these fixes, and the writer revised the speech:'
    : 'The reviewer asked for these fixes; the revision failed, so this is the first draft:';
}

/** 'Made in 5 steps: searcher, analyzer, writer, reviewer, revision.' */
export function stepsText(team: TeamNotesFields): string {
  const members = [
    ...(team.searched ? ['searcher'] : []),
    'analyzer',
    'writer',
    'reviewer',
    ...(team.review === 'fixes' ? ['revision'] : []),
  ];
  return `Made in ${team.steps} ${team.steps === 1 ? 'step' : 'steps'}: ${members.join(', ')}.`;
}

/** The sources, the plan and the reviewer's notes, collapsed until asked for. */
export function TeamNotesView({ team }: { team: TeamNotesFields }) {
  return (
    <details className="team-notes">
      <summary>{TEAM_NOTES_HEADING}</summary>
      {team.searched && team.evidence.length === 0 && <p>{NO_SOURCES}</p>}
      {team.evidence.length > 0 && (
        <>
          <p>{SOURCES_HEADING}</p>
          <ol>
            {team.evidence.map((source) => (
              <li key={source.url}>
                <a href={source.url} rel="noopener noreferrer nofollow" target="_blank">
                  {source.title}
                </a>
              </li>
            ))}
          </ol>
        </>
      )}
      <p>
        <strong>The analyzer&apos;s plan:</strong> {team.plan}
      </p>
      <p>{reviewText(team)}</p>
      {team.fixes.length > 0 && (
        <ul>
          {team.fixes.map((fix) => (
            <li key={fix}>{fix}</li>
          ))}
        </ul>
      )}
      <p className="hint">{stepsText(team)}</p>
    </details>
  );
}
