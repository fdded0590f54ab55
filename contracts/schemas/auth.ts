import { z } from 'zod';
import { hasNoControlCharacters } from './text-rules.js';

/**
 * Accounts: one source of truth for the login, signup, forgot and reset forms (client), the tRPC
 * procedures and the spec's REST shims. Messages are the spec's exact strings (sections 5 and 8).
 */
export const AUTH_MESSAGES = {
  email: 'Please enter a valid email address',
  loginPassword: 'Password must be at least 8 characters',
  signupName: 'Name must be at least 3 characters long',
  nameTooLong: 'Name must be at most 100 characters',
  nameControl: 'Name cannot contain line breaks, tabs or other control characters',
  signupPassword: 'Password must be at least 8 characters long',
  passwordTooLong: 'Password must be at most 128 characters',
  mismatch: 'Passwords do not match',
  resetToken: 'Invalid reset link',
  // Server answers (section 8's success strings, and the failures the client shows as they are).
  emailChecked: 'Please enter your password',
  loggedIn: 'Login successful!',
  signedUp: 'Account created successfully!',
  resetSent: 'Password reset link sent to your email!',
  resetDone: 'Password reset successfully! Please login with your new password.',
  loggedOut: 'Logged out successfully',
  badCredentials: 'Invalid email or password',
  emailTaken: 'Signup failed. Email might already be in use.',
  resetInvalid: 'Reset link has expired or is invalid. Please request a new one.',
  authRequired: 'Authentication required',
} as const;

/** Passwords are never truncated; 128 characters is the most we accept (argon2 takes any length). */
export const PASSWORD_MAX = 128;
export const NAME_MAX = 100;

// The spec's "basic pattern": no spaces, one at sign, a dot in the domain.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Trimmed and lower-cased: the stored form, so Jane@X.org and jane@x.org are one account. */
export const ZEmail = z
  .string({ error: AUTH_MESSAGES.email })
  .trim()
  .max(254, AUTH_MESSAGES.email)
  .regex(EMAIL_PATTERN, AUTH_MESSAGES.email)
  .toLowerCase();

export const ZAccountName = z
  .string({ error: AUTH_MESSAGES.signupName })
  // Before the trim, so a line break at either end is refused too (issue 46 H3).
  .refine(hasNoControlCharacters, AUTH_MESSAGES.nameControl)
  .trim()
  .min(3, AUTH_MESSAGES.signupName)
  .max(NAME_MAX, AUTH_MESSAGES.nameTooLong);

/** A new password (signup, reset): at least 8, at most 128, taken exactly as typed. */
export const ZNewPassword = z
  .string({ error: AUTH_MESSAGES.signupPassword })
  .min(8, AUTH_MESSAGES.signupPassword)
  .max(PASSWORD_MAX, AUTH_MESSAGES.passwordTooLong);

export const ZCheckEmailInput = z.object({ email: ZEmail });
export type TCheckEmailInput = z.infer<typeof ZCheckEmailInput>;

export const ZLoginInput = z.object({
  email: ZEmail,
  password: z
    .string({ error: AUTH_MESSAGES.loginPassword })
    .min(8, AUTH_MESSAGES.loginPassword)
    .max(PASSWORD_MAX, AUTH_MESSAGES.passwordTooLong),
});
export type TLoginInput = z.infer<typeof ZLoginInput>;

/** The spec's signup payload: {name, email, password}. */
export const ZSignupInput = z.object({ name: ZAccountName, email: ZEmail, password: ZNewPassword });
export type TSignupInput = z.infer<typeof ZSignupInput>;

/** The signup form adds the confirmation the client checks before calling. */
export const ZSignupForm = ZSignupInput.extend({ confirmPassword: z.string() }).refine(
  (v) => v.password === v.confirmPassword,
  { message: AUTH_MESSAGES.mismatch, path: ['confirmPassword'] },
);

export const ZForgotPasswordInput = z.object({ email: ZEmail });
export type TForgotPasswordInput = z.infer<typeof ZForgotPasswordInput>;

export const ZResetPasswordInput = z.object({
  token: z
    .string({ error: AUTH_MESSAGES.resetToken })
    .trim()
    .min(1, AUTH_MESSAGES.resetToken)
    .max(200, AUTH_MESSAGES.resetToken),
  password: ZNewPassword,
});
export type TResetPasswordInput = z.infer<typeof ZResetPasswordInput>;

export const ZResetPasswordForm = ZResetPasswordInput.extend({ confirmPassword: z.string() }).refine(
  (v) => v.password === v.confirmPassword,
  { message: AUTH_MESSAGES.mismatch, path: ['confirmPassword'] },
);

export const ZAuthUser = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type TAuthUser = z.infer<typeof ZAuthUser>;

export const ZMessageResult = z.object({ success: z.literal(true), message: z.string() });
export type TMessageResult = z.infer<typeof ZMessageResult>;
/** Logout: `redirectUrl` is the IdP's end-session address when the session came from SSO, else null. */
export const ZLogoutResult = ZMessageResult.extend({ redirectUrl: z.string().nullable() });

/** Login and signup: the spec's `success, token, user, message`. */
export const ZAuthResult = ZMessageResult.extend({ token: z.string(), user: ZAuthUser });
export type TAuthResult = z.infer<typeof ZAuthResult>;

export const ZMeResult = z.object({ success: z.literal(true), user: ZAuthUser });
export type TMeResult = z.infer<typeof ZMeResult>;
