/**
 * A list while it loads: grey cards where its cards will be (no jump when they come), and the
 * words for screen readers.
 */
export function ListSkeleton({ label, count = 3 }: { label: string; count?: number }) {
  return (
    <div className="skeleton-list" role="status" aria-busy="true">
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="card skeleton-card" aria-hidden="true">
          <span className="skeleton-line wide" />
          <span className="skeleton-line" />
          <span className="skeleton-line short" />
        </div>
      ))}
    </div>
  );
}
