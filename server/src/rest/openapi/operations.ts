import { z } from 'zod';
import { ZAnalysisPatient, ZAnalysisStatus } from '../../schemas/analysis.js';
import { ZApiKeyList, ZCreateApiKeyInput, ZCreatedApiKey } from '../../schemas/api-key.js';
import { ZAuthResult, ZCheckEmailInput, ZForgotPasswordInput, ZLoginInput, ZMeResult, ZMessageResult, ZResetPasswordInput, ZSignupInput } from '../../schemas/auth.js';
import { ZLegacyChatBody } from '../../schemas/chat.js';
import { ZExportReport } from '../../schemas/export.js';
import { ZChatSummary, ZLegacyChatIdBody, ZLegacyEditTitleBody } from '../../schemas/history.js';
import { ZLegacyProfilePayload } from '../../schemas/profile.js';
import { ZChangeNameInput, ZChangePasswordInput, ZClearInput, ZDeleteAccountInput } from '../../schemas/settings.js';
import { authErrors, envelope, ERRORS, ZOk, type TOperation } from './operation.js';

const ZUpload = z.object({
  image: z.string().describe('The X-ray: JPEG, PNG, WebP or DICOM (.dcm), at most 10 MB').meta({ format: 'binary' }),
  profile: z.string().optional().describe(`JSON text of the patient: ${JSON.stringify(z.toJSONSchema(ZAnalysisPatient, { io: 'input', unrepresentable: 'any' }).properties)}`),
  profile_id: z.uuid().optional().describe('The saved patient profile the chat starts from'),
});
const ZUploadData = z.object({ chat_id: z.uuid(), analysis_id: z.uuid(), status: ZAnalysisStatus });
const ZLegacyProfile = z.object({ profile_id: z.uuid(), created_at: z.string(), profile: z.record(z.string(), z.unknown()) });
const ZProfileBody = z.object({ user_id: z.string().optional(), profile: ZLegacyProfilePayload });
const uploadResponses = {
  200: { description: 'The analysis finished (completed, or refused by the image check) within the wait', schema: envelope(ZUploadData) },
  202: { description: 'Accepted; the analysis is still running (poll the chat, or the JSON export)', schema: envelope(ZUploadData) },
  ...ERRORS,
  413: { description: 'Image size should be less than 10MB', schema: ERRORS[400].schema },
  415: { description: 'Not a JPEG, PNG, WebP or supported DICOM', schema: ERRORS[400].schema },
  503: { description: 'The analysis queue is unavailable', schema: ERRORS[400].schema },
};

/** Every REST path under /api. A test fails when a registered route is missing here. */
export const OPERATIONS: TOperation[] = [
  { method: 'post', path: '/api/auth/check-email', tag: 'auth', summary: 'Check an email (login step 1)', auth: false, body: { schema: ZCheckEmailInput }, responses: { 200: { description: 'OK', schema: ZMessageResult }, 400: ERRORS[400] } },
  { method: 'post', path: '/api/auth/login', tag: 'auth', summary: 'Log in; sets the session cookie and returns the token', auth: false, body: { schema: ZLoginInput }, responses: { 200: { description: 'Logged in', schema: ZAuthResult }, 400: ERRORS[400], 401: ERRORS[401] } },
  { method: 'post', path: '/api/auth/signup', tag: 'auth', summary: 'Create an account', auth: false, body: { schema: ZSignupInput }, responses: { 200: { description: 'Account created', schema: ZAuthResult }, 400: ERRORS[400] } },
  { method: 'post', path: '/api/auth/forgot-password', tag: 'auth', summary: 'Email a password reset link', auth: false, body: { schema: ZForgotPasswordInput }, responses: { 200: { description: 'Sent if the account exists', schema: ZMessageResult }, 400: ERRORS[400] } },
  { method: 'post', path: '/api/auth/reset-password', tag: 'auth', summary: 'Set a new password with a reset token', auth: false, body: { schema: ZResetPasswordInput }, responses: { 200: { description: 'Password reset', schema: ZMessageResult }, 400: ERRORS[400] } },
  { method: 'get', path: '/api/auth/me', tag: 'auth', summary: 'The signed-in user', auth: true, responses: { 200: { description: 'OK', schema: ZMeResult }, ...authErrors } },

  { method: 'post', path: '/api/settings/logout', tag: 'settings', summary: 'End this session', auth: true, responses: { 200: { description: 'Logged out', schema: ZOk }, ...authErrors } },
  { method: 'put', path: '/api/settings/change-name', tag: 'settings', summary: 'Change the account name', auth: true, body: { schema: ZChangeNameInput }, responses: { 200: { description: 'Updated', schema: ZOk }, ...ERRORS } },
  { method: 'put', path: '/api/settings/change-password', tag: 'settings', summary: 'Change the password (password session only)', auth: true, body: { schema: ZChangePasswordInput }, responses: { 200: { description: 'Updated', schema: ZOk }, ...ERRORS } },
  { method: 'post', path: '/api/settings/clear-chats', tag: 'settings', summary: 'Delete every chat', auth: true, body: { schema: ZClearInput }, responses: { 200: { description: 'Deleted', schema: ZOk }, ...ERRORS } },
  { method: 'post', path: '/api/settings/clear-profiles', tag: 'settings', summary: 'Delete every patient profile', auth: true, body: { schema: ZClearInput }, responses: { 200: { description: 'Deleted', schema: ZOk }, ...ERRORS } },
  { method: 'post', path: '/api/settings/delete-account', tag: 'settings', summary: 'Delete the account (needs the password)', auth: true, body: { schema: ZDeleteAccountInput }, responses: { 200: { description: 'Deleted', schema: ZOk }, ...ERRORS } },

  { method: 'post', path: '/api/profile/create', tag: 'profiles', summary: 'Create a patient profile', auth: true, body: { schema: ZProfileBody }, responses: { 201: { description: 'Created', schema: envelope(z.object({ profile_id: z.uuid(), created_at: z.string() })) }, ...ERRORS } },
  { method: 'get', path: '/api/profile/{userId}', tag: 'profiles', summary: 'List the user\'s patient profiles', auth: true, params: { userId: 'Your own user id' }, responses: { 200: { description: 'OK', schema: envelope(z.object({ profiles: z.array(ZLegacyProfile) })) }, ...ERRORS } },
  { method: 'put', path: '/api/profile/{userId}/{profileId}', tag: 'profiles', summary: 'Update a patient profile', auth: true, params: { userId: 'Your own user id', profileId: 'Profile id' }, body: { schema: ZProfileBody }, responses: { 200: { description: 'Updated', schema: envelope(z.object({ profile_id: z.uuid(), updated_at: z.string() })) }, ...ERRORS } },
  { method: 'delete', path: '/api/profile/{userId}/{profileId}', tag: 'profiles', summary: 'Delete a patient profile', auth: true, params: { userId: 'Your own user id', profileId: 'Profile id' }, responses: { 200: { description: 'Deleted', schema: ZOk }, ...ERRORS } },

  { method: 'get', path: '/api/history/get-init-info', tag: 'history', summary: 'The newest chats', auth: true, responses: { 200: { description: 'OK', schema: envelope(z.object({ chats: z.array(ZChatSummary.loose()) }).loose()) }, ...authErrors } },
  { method: 'put', path: '/api/history/edit-title', tag: 'history', summary: 'Rename a chat', auth: true, body: { schema: ZLegacyEditTitleBody }, responses: { 200: { description: 'Renamed', schema: envelope(z.object({ chat_id: z.uuid(), title: z.string(), updated_at: z.string() })) }, ...ERRORS } },
  { method: 'delete', path: '/api/history/delete', tag: 'history', summary: 'Delete a chat', auth: true, body: { schema: ZLegacyChatIdBody }, responses: { 200: { description: 'Deleted', schema: ZOk }, ...ERRORS } },
  { method: 'get', path: '/api/images/{imageId}', tag: 'history', summary: 'An X-ray or heatmap image of one of your chats', auth: true, params: { imageId: 'Image id (from imageUrl)' }, responses: { 200: { description: 'The image', binary: ['image/png', 'image/jpeg', 'image/webp'] }, ...ERRORS } },

  { method: 'post', path: '/api/chat/analyzer', tag: 'analysis', summary: 'Upload an X-ray and wait for the analysis', description: 'Starts a chat with the image and patient details and waits (up to ANALYSIS_WAIT_MS) for the report. DICOM: MONOCHROME1/2 radiographs (CR, DX, RG), uncompressed or JPEG baseline/lossless; an empty name and age are filled from the DICOM tags. `?wait=0` answers at once.', auth: true, query: { wait: { description: '0: answer at once with 202', schema: z.enum(['0']) } }, body: { multipart: ZUpload }, responses: { ...uploadResponses, 500: { description: 'The analysis failed', schema: ERRORS[400].schema } } },
  { method: 'post', path: '/api/chat/upload', tag: 'analysis', summary: 'Upload an X-ray; answer at once (202)', auth: true, body: { multipart: ZUpload }, responses: uploadResponses },
  { method: 'post', path: '/api/chat/chat', tag: 'analysis', summary: 'Ask a follow-up question in a chat', auth: true, body: { schema: ZLegacyChatBody }, responses: { 200: { description: 'The assistant\'s reply', schema: envelope(z.object({ response: z.string(), message_id: z.string() })) }, ...ERRORS } },

  { method: 'get', path: '/api/export/{file}', tag: 'export', summary: 'Download an analysed chat as PDF, DOCX, JSON or FHIR', description: '`{file}` is `<chatId>.pdf`, `<chatId>.docx`, `<chatId>.json` (schema chest-doctor-ai/report@2, see docs/export-schema.md) or `<chatId>.fhir.json` (FHIR R4 Bundle with a DiagnosticReport). Sent as an attachment with Cache-Control: private, no-store; audited.', auth: true, params: { file: 'e.g. 3f0c…e1.pdf' }, responses: { 200: { description: 'The file (the JSON variant is shown)', schema: ZExportReport, binary: ['application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/fhir+json'] }, ...ERRORS, 409: { description: 'The chat has no finished analysis yet', schema: ERRORS[400].schema } } },

  { method: 'get', path: '/api/api-keys', tag: 'api-keys', summary: 'List your active API keys (never the keys themselves)', auth: true, responses: { 200: { description: 'OK', schema: envelope(ZApiKeyList) }, ...authErrors } },
  { method: 'post', path: '/api/api-keys', tag: 'api-keys', summary: 'Create an API key; the key is in this response only', auth: true, body: { schema: ZCreateApiKeyInput }, responses: { 201: { description: 'Created', schema: envelope(ZCreatedApiKey) }, ...ERRORS, 409: { description: 'Too many active keys', schema: ERRORS[400].schema } } },
  { method: 'delete', path: '/api/api-keys/{id}', tag: 'api-keys', summary: 'Revoke an API key', auth: true, params: { id: 'Key id' }, responses: { 200: { description: 'Revoked', schema: ZOk }, ...ERRORS } },

  { method: 'get', path: '/api/docs', tag: 'meta', summary: 'This OpenAPI document', auth: false, responses: { 200: { description: 'OpenAPI 3.1 JSON', schema: z.record(z.string(), z.unknown()) } } },
];
