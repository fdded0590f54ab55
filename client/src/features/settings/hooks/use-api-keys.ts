import { useState } from 'react';
import { API_KEY_MESSAGES, ZCreateApiKeyInput } from '@contracts/schemas/api-key';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';
import { useZodForm } from '../../../lib/use-zod-form';

/**
 * The caller's API keys, for Settings → API keys (all of them) and a team's settings (`teamId`:
 * the admin's own keys marked with that team): the list, the name form whose answer is the key
 * shown once (`created` until `dismiss`), and revoke with its toasts.
 */
export function useApiKeys(teamId?: string) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const list = trpc.apiKey.list.useQuery();
  const revokeKey = trpc.apiKey.revoke.useMutation();
  const [created, setCreated] = useState<string | null>(null);
  // Refreshed, not only invalidated: the panel's first load may still be under way without the key.
  const reloadList = () => void refreshQuery(utils.apiKey.list);
  const form = useZodForm({
    schema: ZCreateApiKeyInput,
    initialValues: { name: '' },
    toInput: (v) => (teamId ? { ...v, team_id: teamId } : v),
    mutation: trpc.apiKey.create.useMutation(),
    variables: (data) => data,
    onSuccess: (res) => {
      setCreated(res.key);
      form.setValues({ name: '' });
      reloadList();
    },
    errorToast: { fallback: 'Failed to create API key' },
  });
  /** Revokes a key; `settled` runs after either answer's toast (a confirmation closes). */
  const revoke = (id: string, settled?: () => void) =>
    revokeKey.mutate(
      { id },
      {
        onSuccess: () => {
          toast.success(API_KEY_MESSAGES.revoked);
          settled?.();
          reloadList();
        },
        onError: (err) => {
          toast.error(errorText(err, 'Failed to revoke API key'));
          settled?.();
        },
      },
    );
  const all = list.data?.keys ?? [];
  return {
    loading: list.isLoading,
    keys: teamId ? all.filter((k) => k.teamId === teamId) : all,
    form,
    created,
    dismiss: () => setCreated(null),
    revoke,
    revoking: revokeKey.isPending,
  };
}
