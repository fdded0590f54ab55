import { z } from 'zod';
import { ZTeamId } from './team.js';

/** Personal API keys: the Settings panel, the tRPC procedures and the REST shim share these. */
export const API_KEY_MESSAGES = {
  nameRequired: 'Key name is required',
  nameTooLong: 'Key name must be at most 100 characters',
  notFound: 'API key not found',
  tooMany: 'You have reached the maximum number of API keys. Revoke one first.',
  sessionOnly: 'Sign in with your password to manage API keys',
  created: 'API key created. Copy it now: it will not be shown again.',
  revoked: 'API key revoked',
  teamKeyStowOnly:
    'A team API key only sends studies (STOW-RS, POST /dicomweb/studies): sign in, or use a personal key, for anything else',
  teamCreatorGone: "This team key's creator is no longer a member of its team: a team admin must create a new key",
} as const;

/** What a password change or reset did to the account's keys (they all stop working). */
export function apiKeysRevokedText(count: number): string {
  return count === 1
    ? 'Your API key was revoked; create a new one if you still need it.'
    : `Your ${count} API keys were revoked; create new ones if you still need them.`;
}

/** Active keys per account; a leaked-key clean-up should not mean reviewing hundreds. */
export const MAX_ACTIVE_API_KEYS = 20;

export const ZCreateApiKeyInput = z.object({
  name: z
    .string({ error: API_KEY_MESSAGES.nameRequired })
    .trim()
    .min(1, API_KEY_MESSAGES.nameRequired)
    .max(100, API_KEY_MESSAGES.nameTooLong),
  /** A team key (issue 32; team admins only): STOW-RS with it files instances into the team. */
  team_id: ZTeamId.nullish(),
});
export type TCreateApiKeyInput = z.infer<typeof ZCreateApiKeyInput>;

export const ZApiKeyIdInput = z.object({
  id: z.string({ error: API_KEY_MESSAGES.notFound }).max(100, API_KEY_MESSAGES.notFound),
});

/** A key as listed: never the key itself, which exists only in the create response. */
export const ZApiKey = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The first characters of the key (`cxr_AbCd…`), so the user can tell keys apart. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** The team a team key belongs to; null for a personal key. */
  teamId: z.uuid().nullable(),
});
export type TApiKey = z.infer<typeof ZApiKey>;

export const ZApiKeyList = z.object({ keys: z.array(ZApiKey) });

export const ZCreatedApiKey = z.object({
  apiKey: ZApiKey,
  /** The full key, shown once: only its hash is stored. */
  key: z.string(),
});
export type TCreatedApiKey = z.infer<typeof ZCreatedApiKey>;

export const ZRevokeApiKeyOutput = z.object({ id: z.uuid() });
