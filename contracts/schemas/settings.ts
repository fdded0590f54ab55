import { z } from 'zod';
import { hasNoControlCharacters } from './text-rules.js';
import { NAME_MAX, PASSWORD_MAX } from './auth.js';

/**
 * Settings: the Profile / Password / Danger Zone forms (client), tRPC procedures and the spec's
 * REST shims share these. Validation messages are the spec's section 5 strings; the results are
 * section 8's success strings.
 */
export const SETTINGS_MESSAGES = {
  name: 'Name must be at least 3 characters',
  nameTooLong: 'Name must be at most 100 characters',
  nameControl: 'Name cannot contain line breaks, tabs or other control characters',
  currentPassword: 'Current password is required',
  newPassword: 'Password must be at least 8 characters',
  passwordTooLong: 'Password must be at most 128 characters',
  mismatch: 'Passwords do not match',
  passwordRequired: 'Password is required',
  confirmRequired: 'Please confirm this action',
  // Server answers.
  nameUpdated: 'Name updated successfully!',
  passwordUpdated: 'Password updated successfully!',
  chatsCleared: 'All chats deleted successfully',
  profilesCleared: 'All profiles deleted successfully',
  accountDeleted: 'Account deleted successfully',
  // 403 WRONG_PASSWORD, not 401: a 401 would trigger the client's global logout.
  wrongCurrentPassword: 'Current password is incorrect',
  wrongPassword: 'Incorrect password',
  sessionOnly: 'Sign in with your password to change account settings',
} as const;

export const ZChangeNameInput = z.object({
  name: z
    .string({ error: SETTINGS_MESSAGES.name })
    // Before the trim, so a line break at either end is refused too (issue 46 H3).
    .refine(hasNoControlCharacters, SETTINGS_MESSAGES.nameControl)
    .trim()
    .min(3, SETTINGS_MESSAGES.name)
    .max(NAME_MAX, SETTINGS_MESSAGES.nameTooLong),
});
export type TChangeNameInput = z.infer<typeof ZChangeNameInput>;

/** The spec's payload: {current_password, new_password, confirm_password}. */
export const ZChangePasswordInput = z
  .object({
    current_password: z
      .string({ error: SETTINGS_MESSAGES.currentPassword })
      .min(1, SETTINGS_MESSAGES.currentPassword)
      .max(PASSWORD_MAX, SETTINGS_MESSAGES.passwordTooLong),
    new_password: z
      .string({ error: SETTINGS_MESSAGES.newPassword })
      .min(8, SETTINGS_MESSAGES.newPassword)
      .max(PASSWORD_MAX, SETTINGS_MESSAGES.passwordTooLong),
    confirm_password: z.string({ error: SETTINGS_MESSAGES.mismatch }),
  })
  .refine((v) => v.new_password === v.confirm_password, {
    message: SETTINGS_MESSAGES.mismatch,
    path: ['confirm_password'],
  });
export type TChangePasswordInput = z.infer<typeof ZChangePasswordInput>;

/** The spec's `success, message`, plus what the change ended, for the Settings page to show. */
export const ZChangePasswordResult = z.object({
  success: z.literal(true),
  message: z.string(),
  otherSessionsEnded: z.number().int(),
  apiKeysRevoked: z.number().int(),
});
export type TChangePasswordResult = z.infer<typeof ZChangePasswordResult>;

/** {confirm_clear: true}: an explicit flag so a stray POST cannot wipe data. */
export const ZClearInput = z.object({
  confirm_clear: z.literal(true, { error: SETTINGS_MESSAGES.confirmRequired }),
});
export type TClearInput = z.infer<typeof ZClearInput>;

export const ZDeleteAccountInput = z.object({
  confirm_delete: z.literal(true, { error: SETTINGS_MESSAGES.confirmRequired }),
  password: z
    .string({ error: SETTINGS_MESSAGES.passwordRequired })
    .min(1, SETTINGS_MESSAGES.passwordRequired)
    .max(PASSWORD_MAX, SETTINGS_MESSAGES.passwordTooLong),
});
export type TDeleteAccountInput = z.infer<typeof ZDeleteAccountInput>;
