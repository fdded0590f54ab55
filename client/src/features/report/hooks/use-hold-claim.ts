import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';

/**
 * A team study's report is saved and signed by the reader holding its claim (issue 46 M3). A
 * reader who opened a study nobody reads and saves or signs it takes the claim first, as pressing
 * Claim would; a study another reader holds is refused by the server (409 "Being read by …"),
 * which the caller shows. Nothing for a personal study.
 */
export function useHoldClaim(analysisId: string, team: string | null) {
  const utils = trpc.useUtils();
  const study = trpc.worklist.study.useQuery({ analysisId }, { enabled: team !== null });
  const me = trpc.auth.me.useQuery(undefined, { enabled: team !== null });
  const claim = trpc.worklist.claim.useMutation();
  return async (): Promise<void> => {
    const s = study.data;
    if (!s || (s.claim && s.claim.userId === me.data?.user.id)) return;
    await claim.mutateAsync({ id: s.id });
    void refreshQuery(utils.worklist.study);
    void refreshQuery(utils.worklist.list);
  };
}
