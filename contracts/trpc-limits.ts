/**
 * The most procedure calls one tRPC HTTP request may carry. The server refuses a longer batch
 * (400) and the web client's batch link splits at this size, so the two must agree. Each call in
 * a batch still counts as one request against the per-IP limiter.
 */
export const TRPC_MAX_BATCH_SIZE = 10;
