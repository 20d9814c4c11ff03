/** A list that could not be loaded: why, and Retry (disabled while it tries again). */
export function LoadFailure({
  message,
  retrying,
  onRetry,
}: {
  message: string;
  retrying: boolean;
  onRetry: () => void;
}) {
  return (
    <div className="empty-state">
      <p className="error" role="alert">
        {message}
      </p>
      <button type="button" className="button secondary" disabled={retrying} onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
