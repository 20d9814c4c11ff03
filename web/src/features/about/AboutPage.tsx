import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { useCatalogQuery } from '../engine/catalog.api';

const tabs = ['The Philosophy', 'The Science', 'The Backers'] as const;
type Tab = (typeof tabs)[number];

function Philosophy() {
  return (
    <>
      <h2>The Philosophy</h2>
      <p>
        A good debate does not tell you what to think. It lays the strongest case for each side next
        to the other, so that you can weigh them yourself.
      </p>
      <ul className="principles">
        <li>
          <strong>Both sides, in full.</strong> Each speaker argues its stance as well as it can.
        </li>
        <li>
          <strong>Evidence over assertion.</strong> Arguments are asked to rest on reasons and
          facts, and rebuttals answer what the other side actually said.
        </li>
        <li>
          <strong>Scrutiny by people.</strong> Every generated argument can be read, questioned and
          voted on; the AI informs the discussion, humans judge it.
        </li>
      </ul>
      <h3>How it works</h3>
      <ol className="steps">
        <li>
          <strong>Choose a topic.</strong> Write your own or draw one of the built-in topics, and
          set each speaker&apos;s stance and style.
        </li>
        <li>
          <strong>Watch a structured debate.</strong> Two AI speakers argue over three rounds:
          constructive arguments, rebuttal and summary.
        </li>
        <li>
          <strong>Review the arguments.</strong> Read each turn&apos;s summary, or expand it to the
          full text.
        </li>
        <li>
          <strong>Share it.</strong> Publish the debate to the community, where others vote and star
          it.
        </li>
      </ol>
    </>
  );
}

/** 'A', 'A and B', 'A, B and C'. */
function listed(labels: readonly string[]): string {
  return labels.length <= 1
    ? (labels[0] ?? '')
    : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1) ?? ''}`;
}

/** What this deployment runs, from the catalogue: which models speak as teams, which alone. */
function deploymentText(
  models: readonly { readonly label: string; readonly speakerMode: string }[],
  searcher: boolean,
): string[] {
  const teams = models.filter((model) => model.speakerMode === 'team').map((model) => model.label);
  const singles = models
    .filter((model) => model.speakerMode !== 'team')
    .map((model) => model.label);
  const lines: string[] = [];
  if (teams.length > 0) {
    lines.push(
      `${listed(teams)} ${teams.length === 1 ? 'speaks' : 'speak'} as a team: an analyzer plans each round from the debate so far, a writer writes the speech from the plan, and a reviewer checks it against the plan and the round; when the reviewer asks for fixes, the writer revises the speech once. Each speech shows how it was made.`,
    );
  }
  if (singles.length > 0) {
    lines.push(
      `${listed(singles)} ${singles.length === 1 ? 'writes' : 'write'} each speech in one pass, without a team.`,
    );
  }
  if (teams.length > 0 && searcher) {
    lines.push(
      "Before the analyzer, a searcher looks for evidence on the web; the speech cites what it uses as [n], and 'How this speech was made' lists the sources.",
    );
  } else {
    lines.push('No searcher runs here: speeches cite no sources found for them.');
  }
  return lines;
}

function Science() {
  const { data, error } = useCatalogQuery(undefined);
  return (
    <>
      <h2>The Science</h2>
      <p>
        The Agent4Debate framework describes each speaker in a competitive debate as a team of
        cooperating agents:
      </p>
      <ul>
        <li>
          <strong>Searcher</strong>: gathers the information a position needs.
        </li>
        <li>
          <strong>Analyzer</strong>: works out the arguments and how they answer the other side.
        </li>
        <li>
          <strong>Writer</strong>: turns the analysis into a speech.
        </li>
        <li>
          <strong>Reviewer</strong>: checks the speech and sends it back for improvement.
        </li>
      </ul>
      <h3>On this platform</h3>
      {data ? (
        deploymentText(data.models, data.searcher).map((line) => <p key={line}>{line}</p>)
      ) : error ? (
        <p>What runs on this platform could not be loaded.</p>
      ) : (
        <p aria-busy="true">Loading what runs on this platform…</p>
      )}
      <h3>Three stages</h3>
      <p>
        Every debate runs in three rounds: <em>Constructive Arguments</em> set out each case, the{' '}
        <em>Rebuttal</em> answers the opponent, and the <em>Summary</em> weighs the debate.
      </p>
      <h3>What the research reports</h3>
      <p>
        The authors of Agent4Debate (Zhang et al., 2024, &ldquo;Can LLMs Beat Humans in Debating? A
        Dynamic Multi-agent Framework for Competitive Debate&rdquo;) evaluated it on 66 debate
        motions covering Fact, Value and Policy motions, in 200 matches against human debaters and
        other systems, ranked with Elo scores. These figures are theirs and describe their
        framework; they are not a validation of this platform.
      </p>
    </>
  );
}

const sampleBackers = [
  'A. Example Foundation',
  'Sample Research Fund',
  'Placeholder Ventures',
  'Jane Doe',
  'John Roe',
  'Open Debate Society',
];

function Backers() {
  return (
    <>
      <h2>The Backers</h2>
      <p>A sample of how supporters will be listed:</p>
      <ul className="backers-sample" aria-label="Sample list, blurred">
        {sampleBackers.map((name) => (
          <li key={name} aria-hidden="true">
            {name}
          </li>
        ))}
      </ul>
      <p className="notice">We currently do not accept donations.</p>
    </>
  );
}

const panels: Record<Tab, () => React.JSX.Element> = {
  'The Philosophy': Philosophy,
  'The Science': Science,
  'The Backers': Backers,
};

/** /about, with its three tabs, keyboard-operable as the WAI-ARIA tabs pattern says. */
export function AboutPage() {
  const [active, setActive] = useState<Tab>('The Philosophy');
  const baseId = useId();
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const Panel = panels[active];

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % tabs.length,
      ArrowLeft: (index - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    setActive(tab);
    tabRefs.current[next]?.focus();
  };

  return (
    <section className="page" aria-labelledby={`${baseId}-heading`}>
      <h1 id={`${baseId}-heading`}>About</h1>
      <div className="tabs" role="tablist" aria-label="About">
        {tabs.map((tab, index) => (
          <button
            key={tab}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${index}`}
            aria-selected={tab === active}
            aria-controls={`${baseId}-panel`}
            tabIndex={tab === active ? 0 : -1}
            className={tab === active ? 'tab active' : 'tab'}
            onClick={() => setActive(tab)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {tab}
          </button>
        ))}
      </div>
      <div
        className="tab-panel"
        role="tabpanel"
        id={`${baseId}-panel`}
        aria-labelledby={`${baseId}-tab-${tabs.indexOf(active)}`}
        tabIndex={0}
      >
        <Panel />
      </div>
    </section>
  );
}
