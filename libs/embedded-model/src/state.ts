/**
 * Where the local model is: being fetched (bytes so far, of how many), being loaded into memory,
 * ready to answer, or failed for good (the reason, said once).
 */
export type LocalModelState =
  | {
      readonly status: 'downloading';
      readonly receivedBytes: number;
      readonly totalBytes: number | null;
    }
  | { readonly status: 'loading' }
  | { readonly status: 'ready' }
  | { readonly status: 'failed'; readonly reason: string };

/** What `GET /health` answers: 200 when ready, else 503 with the same fields (its schema). */
export type { ModelHealth } from '@debate/contracts';
