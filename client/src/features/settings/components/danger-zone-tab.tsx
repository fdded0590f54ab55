import { useState } from 'react';
import { ConfirmDialog, type TConfirmType } from '../../../components/confirm-dialog';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { trpc } from '../../../lib/trpc';
import { closeChat, useCurrentChatId } from '../../../lib/current-chat';
import { useEndSession, useLogout } from '../hooks/use-logout';
import './danger-zone-tab.css';

type TAction = 'clearChats' | 'clearProfiles' | 'deleteAccount';

const DIALOGS: Record<TAction, { type: TConfirmType; title: string; message: string; confirmLabel: string }> = {
  clearChats: {
    type: 'warning',
    title: 'Clear All Chats?',
    message: 'Every chat, analysis and message of your account will be permanently deleted. This cannot be undone.',
    confirmLabel: 'Clear All Chats',
  },
  clearProfiles: {
    type: 'warning',
    title: 'Clear All Profiles?',
    message: 'Every patient profile will be permanently deleted. Existing chats are kept. This cannot be undone.',
    confirmLabel: 'Clear All Profiles',
  },
  deleteAccount: {
    type: 'danger',
    title: 'Delete Account?',
    message: 'Your account, chats, analyses and profiles will be permanently deleted. Enter your password to confirm.',
    confirmLabel: 'Delete Account',
  },
};

export function DangerZoneTab() {
  const [open, setOpen] = useState<TAction | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const toast = useToast();
  const utils = trpc.useUtils();
  const currentChatId = useCurrentChatId();
  const { logout, pending: loggingOut } = useLogout();
  const endSession = useEndSession();
  const clearChats = trpc.settings.clearChats.useMutation();
  const clearProfiles = trpc.settings.clearProfiles.useMutation();
  const deleteAccount = trpc.settings.deleteAccount.useMutation();
  const processing = clearChats.isPending || clearProfiles.isPending || deleteAccount.isPending;

  const close = () => {
    setOpen(null);
    setDialogError(null);
  };

  const confirm = (password: string) => {
    setDialogError(null);
    if (open === 'clearChats') {
      clearChats.mutate(
        { confirm_clear: true },
        {
          onSuccess: () => {
            toast.success('All chats deleted successfully');
            close();
            if (currentChatId) closeChat();
            void utils.history.invalidate();
          },
          onError: (err) => toast.error(errorText(err, 'Failed to delete chats')),
        },
      );
    } else if (open === 'clearProfiles') {
      clearProfiles.mutate(
        { confirm_clear: true },
        {
          onSuccess: () => {
            toast.success('All profiles deleted successfully');
            close();
            void utils.profile.invalidate();
          },
          onError: (err) => toast.error(errorText(err, 'Failed to delete profiles')),
        },
      );
    } else if (open === 'deleteAccount') {
      deleteAccount.mutate(
        { confirm_delete: true, password },
        {
          onSuccess: () => {
            toast.success('Account deleted successfully');
            close();
            endSession();
          },
          onError: (err) => {
            const text = errorText(err, 'Failed to delete account', { WRONG_PASSWORD: 'Incorrect password' });
            toast.error(text);
            setDialogError(text);
          },
        },
      );
    }
  };

  const cards: { key: TAction | 'logout'; title: string; text: string; button: string; tone: string }[] = [
    {
      key: 'clearChats',
      title: 'Clear All Chats',
      text: 'Permanently delete every chat and its analysis.',
      button: 'Clear All Chats',
      tone: 'warning',
    },
    {
      key: 'clearProfiles',
      title: 'Clear All Profiles',
      text: 'Permanently delete every patient profile.',
      button: 'Clear All Profiles',
      tone: 'warning',
    },
    { key: 'logout', title: 'Logout', text: 'Sign out of this browser.', button: 'Logout', tone: 'info' },
    {
      key: 'deleteAccount',
      title: 'Delete Account',
      text: 'Permanently delete your account and all of its data.',
      button: 'Delete Account',
      tone: 'danger',
    },
  ];
  const dialog = open ? DIALOGS[open] : null;

  return (
    <div className="danger-zone">
      <h2 className="section-title">Danger Zone</h2>
      <ul className="danger-cards">
        {cards.map((c) => (
          <li key={c.key} className={`danger-card danger-card-${c.tone}`}>
            <div>
              <h3>{c.title}</h3>
              <p className="muted">{c.text}</p>
            </div>
            <button
              type="button"
              className={`button button-${c.tone === 'info' ? 'secondary' : c.tone}`}
              disabled={c.key === 'logout' && loggingOut}
              onClick={() => (c.key === 'logout' ? void logout() : setOpen(c.key))}
            >
              {c.key === 'logout' && loggingOut ? 'Logging out...' : c.button}
            </button>
          </li>
        ))}
      </ul>
      {dialog ? (
        <ConfirmDialog
          key={open ?? ''}
          open
          type={dialog.type}
          title={dialog.title}
          message={dialog.message}
          confirmLabel={dialog.confirmLabel}
          requirePassword={open === 'deleteAccount'}
          passwordLabel="Password"
          processing={processing}
          error={dialogError}
          onConfirm={confirm}
          onClose={close}
        />
      ) : null}
    </div>
  );
}
