import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../app/api';
import { runDebate } from '../engine/engine.slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { RelativeTime } from '../../components/RelativeTime';
import { useToast } from '../../components/Toast';
import { ListSkeleton } from '../../components/ListSkeleton';
import { LoadFailure } from '../../components/LoadFailure';
import { DebateRounds } from '../debates/DebateRounds';
import { Scorecard } from '../debates/Scorecard';
import { downloadMarkdown } from '../debates/markdown';
import { CategoryChips, CategorySelect, LoadMore, SpeakerFacts } from '../debates/DebateParts';
import { VerdictLine } from '../debates/Scorecard';
import { useCategoriesQuery } from '../community/community.api';
import {
  type HistoryArgs,
  type SavedDebate,
  useMyDebateQuery,
  useMyDebatesQuery,
  useShareDebateMutation,
} from '../debates/debates.api';

const SHARE_SUCCESS = 'Debate shared successfully! It will appear in Community Rankings.';
const SHARE_FAILURE = 'Failed to share debate. Please try again.';

/** `value`, once it has stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function SavedRounds({ debateId }: { debateId: string }) {
  const { data, error, isLoading } = useMyDebateQuery(debateId);
  if (isLoading) return <p role="status">Loading debate rounds...</p>;
  if (error || !data) return <p className="error">Error fetching debate rounds.</p>;
  return (
    <>
      <button type="button" className="button secondary" onClick={() => downloadMarkdown(data)}>
        Export as Markdown
      </button>
      <DebateRounds rounds={data.rounds} sides={data} />
      {data.verdict && <Scorecard verdict={data.verdict} />}
    </>
  );
}

interface SavedCardProps {
  readonly debate: SavedDebate;
  readonly shared: boolean;
  readonly sharing: boolean;
  readonly expanded: boolean;
  onShare(): void;
  onToggle(): void;
}

function SavedCard({ debate, shared, sharing, expanded, onShare, onToggle }: SavedCardProps) {
  const headingId = `saved-${debate.id}`;
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const engineBusy = useAppSelector((state) => state.engine.status === 'running');
  // The same motion, format and styles, each model on the other side: on the engine page.
  const onRematch = () => {
    void dispatch(
      runDebate({
        kind: 'rematch',
        debateId: debate.id,
        topic: debate.topic,
        moderatorEnabled: debate.moderatorEnabled ?? false,
      }),
    ).finally(() => dispatch(api.util.invalidateTags(['Usage'])));
    void navigate('/engine');
  };
  return (
    <article className="card debate-card" aria-labelledby={headingId}>
      <h3 id={headingId}>{debate.topic}</h3>
      <CategoryChips categories={debate.categories} />
      <p className="hint">
        Saved <RelativeTime iso={debate.timestamp} />
      </p>
      <SpeakerFacts model1={debate.model1} model2={debate.model2} />
      <VerdictLine verdict={debate.verdict} />
      {debate.rematchOf && (
        <p className="hint rematch-line">The side-swapped rematch of an earlier debate</p>
      )}
      <div className="card-actions">
        <button
          type="button"
          className={`button${shared ? ' success' : ''}`}
          disabled={shared || sharing}
          onClick={onShare}
        >
          {shared ? 'Shared with Community' : sharing ? 'Sharing...' : 'Share with Community'}
        </button>
        {shared && (
          <Link to={`/community/debate/${encodeURIComponent(debate.id)}`}>Public page</Link>
        )}
        <button
          type="button"
          className="button secondary"
          disabled={engineBusy}
          onClick={onRematch}
        >
          Rematch, sides swapped
        </button>
        <button type="button" className="link-button" aria-expanded={expanded} onClick={onToggle}>
          {expanded ? 'Hide Debate' : 'View Debate'}
        </button>
      </div>
      {expanded && <SavedRounds debateId={debate.id} />}
    </article>
  );
}

interface PageProps {
  readonly args: HistoryArgs;
  readonly isFirst: boolean;
  readonly isLast: boolean;
  readonly shared: ReadonlySet<string>;
  readonly sharing: string | null;
  readonly expandedId: string | null;
  onShare(id: string): void;
  onExpand(id: string | null): void;
  onMore(after: string): void;
}

function HistoryPageOfCards({ args, isFirst, isLast, ...props }: PageProps) {
  const { data, error, isFetching, refetch } = useMyDebatesQuery(args);
  if (error) {
    return (
      <LoadFailure
        message="Unable to load your debate history. Please try again later."
        retrying={isFetching}
        onRetry={() => void refetch()}
      />
    );
  }
  if (!data) return isFirst ? <ListSkeleton label="Loading your debates…" /> : null;
  return (
    <>
      {isFirst && (
        <p className="count">
          {data.total} {data.total === 1 ? 'debate' : 'debates'}
        </p>
      )}
      {isFirst && data.debates.length === 0 && <p>No debates found matching your criteria</p>}
      {data.debates.map((debate) => (
        <SavedCard
          key={debate.id}
          debate={debate}
          shared={debate.isPublic || props.shared.has(debate.id)}
          sharing={props.sharing === debate.id}
          expanded={props.expandedId === debate.id}
          onShare={() => props.onShare(debate.id)}
          onToggle={() => props.onExpand(props.expandedId === debate.id ? null : debate.id)}
        />
      ))}
      {isLast && <LoadMore next={data.next} busy={isFetching} onMore={props.onMore} />}
    </>
  );
}

function History() {
  const { data: categories } = useCategoriesQuery(undefined);
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<string | null>(null);
  const [order, setOrder] = useState<'newest' | 'oldest'>('newest');
  const [expandedId, setExpandedId] = useState<string | null>(null);
  const [shared, setShared] = useState<ReadonlySet<string>>(new Set());
  const [sharing, setSharing] = useState<string | null>(null);
  const [share] = useShareDebateMutation();
  const { toast, show } = useToast();
  const settledSearch = useDebounced(search, 300);
  // Another filter starts from the first page.
  const filterKey = `${settledSearch}|${category ?? ''}|${order}`;
  const [paging, setPaging] = useState({ key: filterKey, cursors: [null] as Array<string | null> });
  const cursors = paging.key === filterKey ? paging.cursors : [null];

  const onShare = async (id: string) => {
    setSharing(id);
    try {
      const result = await share(id).unwrap();
      if (!result.isPublic) throw new Error('not shared');
      setShared((current) => new Set([...current, id]));
      show(SHARE_SUCCESS);
    } catch {
      show(SHARE_FAILURE);
    } finally {
      setSharing(null);
    }
  };

  return (
    <>
      <div className="filters">
        <label>
          Search
          <input
            type="search"
            value={search}
            maxLength={200}
            placeholder="Search your debates"
            onChange={(event) => setSearch(event.target.value)}
          />
        </label>
        <CategorySelect value={category} categories={categories ?? []} onChange={setCategory} />
        <label>
          Sort
          <select
            value={order}
            onChange={(event) => setOrder(event.target.value === 'oldest' ? 'oldest' : 'newest')}
          >
            <option value="newest">Newest First</option>
            <option value="oldest">Oldest First</option>
          </select>
        </label>
      </div>
      <div className="debate-list">
        {cursors.map((after, index) => (
          <HistoryPageOfCards
            key={`${filterKey}|${after ?? 'first'}`}
            args={{ search: settledSearch, category, order, after }}
            isFirst={index === 0}
            isLast={index === cursors.length - 1}
            shared={shared}
            sharing={sharing}
            expandedId={expandedId}
            onShare={(id) => void onShare(id)}
            onExpand={setExpandedId}
            onMore={(next) => setPaging({ key: filterKey, cursors: [...cursors, next] })}
          />
        ))}
      </div>
      {toast}
    </>
  );
}

/** 'Your Account Activity': the user's own debates, searched, filtered, shared. */
export function HistoryTab() {
  const status = useAppSelector((state) => state.auth.status);
  return (
    <div className="tab-panel">
      <h2>Your Account Activity</h2>
      {status === 'signedIn' ? (
        <History />
      ) : status === 'loading' ? (
        <p>Checking your sign-in…</p>
      ) : (
        <p>
          <Link to="/login">Sign in</Link> to see the debates you generated.
        </p>
      )}
    </div>
  );
}
