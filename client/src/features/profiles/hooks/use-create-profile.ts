import type { TProfile, TProfileValues } from '@contracts/schemas/profile';
import { useToast } from '../../../components/toast/use-toast';
import { useSpaceTeam } from '../../../lib/current-space';
import { errorInfo, errorText } from '../../../lib/error-text';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';

/**
 * Section 8's save errors: a 401 is 'User not authenticated' (section 5; the session ended while
 * the form was open, and the app then signs out); a refusal the server answered (any other 4xx:
 * the profile was deleted meanwhile, a refused request) is the spec's "success is false" string;
 * no answer or a 5xx falls back to 'Failed to save profile'.
 */
export function saveErrorText(err: unknown, refused: 'Failed to update profile' | 'Failed to create profile'): string {
  const { status } = errorInfo(err);
  if (status === 401) return 'User not authenticated';
  if (status !== null && status >= 400 && status < 500) return refused;
  return errorText(err, 'Failed to save profile');
}

/**
 * Creating a profile in the current space, wherever the form is (Patient Profiles, or New Chat's
 * "New patient"): the spec's toasts, and the lists refetched. `onCreated` gets the new profile.
 */
export function useCreateProfile() {
  const toast = useToast();
  const utils = trpc.useUtils();
  const team = useSpaceTeam();
  // The error on the mutation, not on mutate(): a 401 takes the user to /login at once, and
  // mutate()'s callbacks do not run once the form has unmounted.
  const mutation = trpc.profile.create.useMutation({
    onError: (err) => toast.error(saveErrorText(err, 'Failed to create profile')),
  });
  const create = (values: TProfileValues, onCreated: (profile: TProfile) => void) =>
    mutation.mutate(
      { ...values, team },
      {
        onSuccess: (profile) => {
          toast.success('Profile created successfully');
          void refreshQuery(utils.profile.list);
          onCreated(profile);
        },
      },
    );
  return { create, pending: mutation.isPending };
}
