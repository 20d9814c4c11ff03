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

/** What `GET /health` answers: 200 when ready, else 503 with the same fields. */
export interface ModelHealth {
  readonly status: LocalModelState['status'];
  /** The model's id, as `/v1/models` lists it and a request names it. */
  readonly model: string;
  /** The model's name for people (GGUF `general.name`, or the download's), e.g. "Qwen2.5 1.5B Instruct". */
  readonly name: string;
  /** While downloading: the fraction fetched, 0 to 1 (null when the size is unknown). */
  readonly progress: number | null;
  /** When failed: why. */
  readonly reason: string | null;
  /** Requests being answered now, and waiting for a turn. */
  readonly running: number;
  readonly waiting: number;
}
