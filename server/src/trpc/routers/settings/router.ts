import { router } from '../../trpc.js';
import { changeNameProcedure } from './change-name.js';
import { changePasswordProcedure } from './change-password.js';
import { clearChatsProcedure } from './clear-chats.js';
import { clearProfilesProcedure } from './clear-profiles.js';
import { deleteAccountProcedure } from './delete-account.js';
import { logoutProcedure } from './logout.js';

export const settingsRouter = router({
  logout: logoutProcedure,
  changeName: changeNameProcedure,
  changePassword: changePasswordProcedure,
  clearChats: clearChatsProcedure,
  clearProfiles: clearProfilesProcedure,
  deleteAccount: deleteAccountProcedure,
});
