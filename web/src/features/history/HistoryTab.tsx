import { authorName, PERSON_MODEL_ID } from '@debate/contracts/constants';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../app/api';
import { runDebate } from '../engine/engine.slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { RelativeTime } from '../../components/RelativeTime';
import { copyLink } from '../../components/copyLink';
import { Dialog } from '../../components/Dialog';
import { useToast } from '../../components/Toast';
import { ListSkeleton } from '../../components/ListSkeleton';
import { LoadFailure } from '../../components/LoadFailure';
import { DebateRounds } from '../debates/DebateRounds';
import { Scorecard } from '../debates/Scorecard';
import { downloadMarkdown } from '../debates/markdown';
import {
  CategoryChips,
  CategorySelect,
  LoadMore,
  SpeakerFacts,
  StoppedNote,
} from '../debates/DebateParts';
import { VerdictLine } from '../debates/Scorecard';
import { useCategoriesQuery } from '../community/community.api';
import {
  type HistoryArgs,
  type SavedDebate,
  useMyDebateQuery,
  useMyDebatesQuery,
  useShareDebateMutation,
  useUnshareDebateMutation,
} from '../debates/debates.api';

const SHARE_SUCCESS = 'Debate shared successfully! It will appear in Community Rankings.';
const SHARE_FAILURE = 'Failed to share debate. Please try again.';
// Green, like the share's toast: the spec's toasts are green when they speak of success.
const UNSHARE_SUCCESS = 'Debate unshared successfully. It no longer appears in Community Rankings.';
const UNSHARE_FAILURE = 'Failed to unshare debate. Please try again.';

/** Making a debate public, or private again. */
type Publishing = 'share' | 'unshare';

/** A shared debate's page, open to anyone. */
function publicPath(debateId: string): string {
  return `/community/debate/${encodeURIComponent(debateId)}`;
}

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
      {data.verdict && <Scorecard verdict={data.verdict} inCard />}
    </>
  );
}

interface SavedCardProps {
  readonly debate: SavedDebate;
  readonly shared: boolean;
  /** Its share or unshare under way, if any. */
  readonly publishing: Publishing | null;
  readonly expanded: boolean;
  onPublish(change: Publishing): void;
  onToggle(): void;
}

function SavedCard({ debate, shared, publishing, expanded, onPublish, onToggle }: SavedCardProps) {
  const headingId = `saved-${debate.id}`;
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const engineBusy = useAppSelector((state) => state.engine.status === 'running');
  // Once a share or unshare is over, the button that made it is disabled or gone: the keyboard's
  // focus goes to the one that undoes it rather than to the page.
  const shareButton = useRef<HTMLButtonElement>(null);
  const unshareButton = useRef<HTMLButtonElement>(null);
  const wasPublishing = useRef(false);
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => {
    if (publishing !== null) {
      wasPublishing.current = true;
      return;
    }
    if (!wasPublishing.current) return;
    wasPublishing.current = false;
    (shared ? unshareButton : shareButton).current?.focus();
  }, [publishing, shared]);
  // A person cannot be made to argue the other side: the gateway rematches two models only.
  const rematchable = ![debate.model1, debate.model2].some((side) => side.name === PERSON_MODEL_ID);
  // The same motion, format and styles, each model on the other side: on the engine page.
  const onRematch = () => {
    void dispatch(
      runDebate({
        kind: 'rematch',
        debateId: debate.id,
        topic: debate.topic,
        moderatorEnabled: debate.moderatorEnabled ?? false,
        stances: { first: debate.model1.stance, second: debate.model2.stance },
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
      <StoppedNote stopped={debate.stopped} />
      {debate.rematchOf && (
        <p className="hint rematch-line">The side-swapped rematch of an earlier debate</p>
      )}
      <div className="card-actions">
        <button
          ref={shareButton}
          type="button"
          className={`button${shared ? ' success' : ''}`}
          disabled={shared || publishing !== null}
          onClick={() => onPublish('share')}
        >
          {shared
            ? 'Shared with Community'
            : publishing === 'share'
              ? 'Sharing...'
              : 'Share with Community'}
        </button>
        {shared && <Link to={publicPath(debate.id)}>Public page</Link>}
        {/* Lasting, beside the page's link: the toast's Copy link is gone after 3 s. */}
        {shared && (
          <button
            type="button"
            className="link-button"
            onClick={() =>
              void copyLink(new URL(publicPath(debate.id), window.location.origin).href).then(
                setCopied,
              )
            }
          >
            Copy link
          </button>
        )}
        {shared && copied && (
          <span className="hint" role="status">
            {copied}
          </span>
        )}
        {shared && (
          <button
            ref={unshareButton}
            type="button"
            className="button secondary"
            disabled={publishing !== null}
            onClick={() => onPublish('unshare')}
          >
            {publishing === 'unshare' ? 'Unsharing...' : 'Unshare'}
          </button>
        )}
        {rematchable && (
          <button
            type="button"
            className="button secondary"
            disabled={engineBusy}
            onClick={onRematch}
          >
            Rematch, sides swapped
          </button>
        )}
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
  /** Whether a debate shared or unshared here since its page was read is public now. */
  readonly publicNow: ReadonlyMap<string, boolean>;
  readonly publishing: { readonly id: string; readonly change: Publishing } | null;
  readonly expandedId: string | null;
  onPublish(debate: SavedDebate, change: Publishing): void;
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
          shared={props.publicNow.get(debate.id) ?? debate.isPublic}
          publishing={props.publishing?.id === debate.id ? props.publishing.change : null}
          expanded={props.expandedId === debate.id}
          onPublish={(change) => props.onPublish(debate, change)}
          onToggle={() => props.onExpand(props.expandedId === debate.id ? null : debate.id)}
        />
      ))}
      {isLast && <LoadMore next={data.next} busy={isFetching} onMore={props.onMore} />}
    </>
  );
}

interface PublishDialogProps {
  readonly debate: SavedDebate;
  readonly change: Publishing;
  onConfirm(): void;
  onClose(): void;
}

/**
 * Asks before sharing (saying what everyone will then see, and that it can be undone) and before
 * unsharing; Escape, the backdrop or Cancel change nothing.
 */
function PublishDialog({ debate, change, onConfirm, onClose }: PublishDialogProps) {
  const author = authorName(debate.userDisplayName);
  const headingId = `${change}-heading`;
  return (
    <Dialog labelledBy={headingId} onClose={onClose}>
      {change === 'share' ? (
        <>
          <h2 id={headingId}>Share this debate with the community?</h2>
          <p>Everyone, signed in or not, will see on the Community Forum and on its public page:</p>
          <ul>
            <li>its topic, “{debate.topic}”, and its categories</li>
            <li>the speakers’ turns, and what wrote them</li>
            {debate.verdict && <li>the judges’ verdict</li>}
            {author && <li>your name, {author}, as its author</li>}
          </ul>
          <p>You can unshare it later, here in your history.</p>
        </>
      ) : (
        <>
          <h2 id={headingId}>Unshare this debate?</h2>
          <p>
            It leaves the Community Forum and its public page. It stays in your history, and you can
            share it again.
          </p>
        </>
      )}
      <button type="button" className="button" autoFocus onClick={onConfirm}>
        {change === 'share' ? 'Share' : 'Unshare'}
      </button>{' '}
      <button type="button" className="button secondary" onClick={onClose}>
        Cancel
      </button>
    </Dialog>
  );
}

function History() {
  const { data: categories } = useCategoriesQuery(undefined);
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<string | null>(null);
  const [order, setOrder] = useState<'newest' | 'oldest'>('newest');
  const [expandedId, setExpandedId] = useState<string | null>(null);
  const [publicNow, setPublicNow] = useState<ReadonlyMap<string, boolean>>(new Map());
  const [publishing, setPublishing] = useState<PageProps['publishing']>(null);
  // Sharing and unsharing are asked first.
  const [asking, setAsking] = useState<{ debate: SavedDebate; change: Publishing } | null>(null);
  const [share] = useShareDebateMutation();
  const [unshare] = useUnshareDebateMutation();
  const { toast, show } = useToast();
  const settledSearch = useDebounced(search, 300);
  // Another filter starts from the first page.
  const filterKey = `${settledSearch}|${category ?? ''}|${order}`;
  const [paging, setPaging] = useState({ key: filterKey, cursors: [null] as Array<string | null> });
  const cursors = paging.key === filterKey ? paging.cursors : [null];

  const onConfirm = async (id: string, change: Publishing) => {
    setAsking(null);
    setPublishing({ id, change });
    const sharing = change === 'share';
    try {
      const result = await (sharing ? share(id) : unshare(id)).unwrap();
      if (result.isPublic !== sharing) throw new Error(`not ${change}d`);
      setPublicNow((current) => new Map(current).set(id, result.isPublic));
      if (sharing) {
        const url = new URL(publicPath(id), window.location.origin).href;
        show(SHARE_SUCCESS, { label: 'Copy link', run: () => copyLink(url) });
      } else {
        show(UNSHARE_SUCCESS);
      }
    } catch {
      show(sharing ? SHARE_FAILURE : UNSHARE_FAILURE);
    } finally {
      setPublishing(null);
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
            publicNow={publicNow}
            publishing={publishing}
            expandedId={expandedId}
            onPublish={(debate, change) => setAsking({ debate, change })}
            onExpand={setExpandedId}
            onMore={(next) => setPaging({ key: filterKey, cursors: [...cursors, next] })}
          />
        ))}
      </div>
      {asking && (
        <PublishDialog
          {...asking}
          onConfirm={() => void onConfirm(asking.debate.id, asking.change)}
          onClose={() => setAsking(null)}
        />
      )}
      {toast}
    </>
  );
}

/** 'Your Account Activity': the user's own debates, searched, filtered, shared. */
export function HistoryTab() {
  const status = useAppSelector((state) => state.auth.status);
  return (
    <div className="tab-panel unframed">
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
