import { MAX_VERDICT_TOTAL, roundTitles } from '@debate/contracts/constants';
import type { DebateSpeakerFieldsFragment, MyDebateQuery } from '../../gql/graphql';
import { judgeDetails, PERSON_KIND, speakerModelDetails, turnProvenance } from './provenance';
import {
  NO_SOURCES,
  reviewText,
  SOURCES_HEADING,
  stepsText,
  TEAM_NOTES_HEADING,
  type TeamNotesFields,
} from './team-notes';
import { communityStanceLabel } from './stance';
import {
  formatPoints,
  readingText,
  type ScoreCell,
  scorecardRows,
  type Verdict,
  verdictHeadline,
} from './verdict';

/** What the export writes: a saved debate (myDebate) has it, and so has a shared one. */
export type ExportedDebate = Pick<
  MyDebateQuery['myDebate'],
  'topic' | 'categories' | 'sharedAt' | 'model1' | 'model2' | 'rounds' | 'verdict'
>;

/** Text that Markdown shows as written (no emphasis, links or headings by accident). */
function escape(text: string): string {
  return text.replace(/([\\`*_{}[\]<>#|!])/g, '\\$1');
}

/** The debate as a Markdown document: topic, speakers, and every round's full text and summary. */
export function debateToMarkdown(debate: ExportedDebate): string {
  // What really wrote each speaker's rounds ('Offline speaker'), with the server's model and the
  // tokens; the catalogue id only for a debate saved before that was kept.
  // A person's side: who wrote it and the position, no style (a person was given none).
  const speaker = (label: string, model: DebateSpeakerFieldsFragment) =>
    `- **${label}**: ${escape(speakerModelDetails(model, ', '))}, ${communityStanceLabel(model.stance)} (${model.stance})${model.writtenBy?.kind === PERSON_KIND ? '' : `, ${escape(model.rhetoricStyle)} style`}`;
  const lines = [
    `# ${escape(debate.topic)}`,
    '',
    `Categories: ${debate.categories.map(escape).join(', ')}`,
    ...(debate.sharedAt ? [`Shared ${new Date(debate.sharedAt).toISOString().slice(0, 10)}`] : []),
    '',
    speaker('First Speaker', debate.model1),
    speaker('Second Speaker', debate.model2),
  ];
  for (const round of debate.rounds) {
    lines.push(
      '',
      `## Round ${round.round} - ${round.speaker}${roundTitles[round.round - 1] ? ` (${roundTitles[round.round - 1]})` : ''}`,
      '',
      ...(round.writtenBy ? [escape(turnProvenance(round.writtenBy)), ''] : []),
      escape(round.text),
      '',
      `> ${escape(round.summary).replace(/\n/g, '\n> ')}`,
      ...(round.team ? ['', ...teamNotesMarkdown(round.team)] : []),
    );
  }
  if (debate.verdict) lines.push('', ...scorecardMarkdown(debate.verdict));
  return `${lines.join('\n')}\n`;
}

/** A URL as a Markdown link's target: what would end it or break it percent-encoded, nothing else. */
function linkTarget(url: string): string {
  return url.replace(
    /[\s()<>]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** A round's '### How this speech was made': the sources, the plan, the review, the steps. */
function teamNotesMarkdown(team: TeamNotesFields): string[] {
  return [
    `### ${TEAM_NOTES_HEADING}`,
    '',
    ...(team.evidence.length > 0
      ? [
          SOURCES_HEADING,
          '',
          ...team.evidence.map(
            (source, index) => `${index + 1}. [${escape(source.title)}](${linkTarget(source.url)})`,
          ),
          '',
        ]
      : team.searched
        ? [NO_SOURCES, '']
        : []),
    `The analyzer's plan: ${escape(team.plan)}`,
    '',
    escape(reviewText(team)),
    ...(team.fixes.length > 0 ? ['', ...team.fixes.map((fix) => `- ${escape(fix)}`)] : []),
    '',
    stepsText(team),
  ];
}

/**
 * The '## Judges' scorecard' section: the winner or the tie, a table of the criteria with both
 * speakers' scores and reasons, the totals, each reading and who judged.
 */
function scorecardMarkdown(verdict: Verdict): string[] {
  const cell = (score: ScoreCell | null) =>
    score ? `${formatPoints(score.score)}: ${escape(score.reason)}` : '-';
  return [
    "## Judges' scorecard",
    '',
    `**${escape(verdictHeadline(verdict))}**`,
    '',
    '| Criterion | First Speaker | Second Speaker |',
    '| --- | --- | --- |',
    ...scorecardRows(verdict).map(
      (row) => `| ${escape(row.label)} | ${cell(row.first)} | ${cell(row.second)} |`,
    ),
    `| **Total** (at most ${formatPoints(MAX_VERDICT_TOTAL)}) | **${formatPoints(verdict.firstTotal)}** | **${formatPoints(verdict.secondTotal)}** |`,
    '',
    ...verdict.readings.map((reading) => `- ${escape(readingText(reading))}`),
    ...(verdict.readings.length > 0 ? [''] : []),
    `Judged by ${escape(judgeDetails(verdict.judgedBy, ', '))}`,
  ];
}

/** A file name for the debate's export: its topic, letters and digits only. */
export function markdownFileName(debate: Pick<ExportedDebate, 'topic'>): string {
  const stem = debate.topic
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${stem || 'debate'}.md`;
}

/** Offers the Markdown of `debate` as a download. */
export function downloadMarkdown(debate: ExportedDebate): void {
  const blob = new Blob([debateToMarkdown(debate)], { type: 'text/markdown;charset=utf-8' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = markdownFileName(debate);
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(link.href);
}
