import type { TestApp } from '../../helpers/test-app.js';
import type { TActor, TRows, TWorld } from './matrix-world.js';

/** What one matrix row's call gets: the world, the caller, and the team rows it reaches for. */
export interface TCallCtx {
  t: TestApp;
  w: TWorld;
  actor: TActor;
  /** The caller's session token (for `teamKey`, the team's API key); null for no account. */
  token: string | null;
  /** The caller's user id (a random UUID for no account). */
  self: string;
  /** The caller's password (for calls that ask for it again). */
  password: string;
  /** A colleague's rows in the team (the author's: never the caller's own). */
  rows: TRows;
  /** Rows the caller made in the team; a non-member gets the colleague's (it cannot make any). */
  own(): Promise<TRows>;
}

/**
 * One row of the permission matrix: a surface (the key the completeness check matches against
 * the app's own route table and tRPC router: `METHOD /path/{param}`, `query a.b`, `mutation a.b`,
 * `subscription a.b`, `batch ...`), what variant of it the row calls, and the expected answer
 * for [admin, radiologist, clinician, member of another team, no account].
 */
export interface TCase {
  surface: string;
  variant?: string;
  expect: TAnswers;
  /**
   * The answer to the same call made with a team API key of the team (issue 39 S2): a team key is
   * a STOW-RS credential and nothing else, so every other surface answers 403 (the default).
   */
  teamKey?: number;
  call(c: TCallCtx): Promise<number>;
}

/** What a team key gets everywhere but STOW-RS. */
export const TEAM_KEY_REFUSED = 403;
export type TAnswers = readonly [number, number, number, number, number];

/** Any member reads it; another team's member gets 404, like a missing id; no account 401. */
export const READ: TAnswers = [200, 200, 200, 404, 401];
/** A colleague's row changed: admin and radiologist may; a clinician only their own rows (404 here). */
export const WRITE_COLLEAGUES: TAnswers = [200, 200, 404, 404, 401];
/** Team management: admin only; other members 403; another team 404. */
export const MANAGE: TAnswers = [200, 403, 403, 404, 401];
/** Not about team rows: every account gets the same answer. */
export const SIGNED_IN = (status: number): TAnswers => [status, status, status, status, 401];
/** Open to everyone, account or not. */
export const ANYONE = (status: number): TAnswers => [status, status, status, status, status];
