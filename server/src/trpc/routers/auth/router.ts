import { router } from '../../trpc.js';
import { checkEmailProcedure } from './check-email.js';
import { forgotPasswordProcedure } from './forgot-password.js';
import { loginProcedure } from './login.js';
import { meProcedure } from './me.js';
import { resetPasswordProcedure } from './reset-password.js';
import { signupProcedure } from './signup.js';

export const authRouter = router({
  checkEmail: checkEmailProcedure,
  login: loginProcedure,
  signup: signupProcedure,
  forgotPassword: forgotPasswordProcedure,
  resetPassword: resetPasswordProcedure,
  me: meProcedure,
});
