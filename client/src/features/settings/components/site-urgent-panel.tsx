import { useState } from 'react';
import { SITE_MESSAGES } from '@contracts/schemas/site';
import { Spinner } from '../../../components/spinner';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { trpc } from '../../../lib/trpc';

/**
 * Which findings make a worklist study Urgent when called "Likely" (issue 48), and whether their
 * "Possible" flags count too: only these do; the server offers only shipped findings that can fire.
 */
export function SiteUrgentPanel() {
  const toast = useToast();
  const utils = trpc.useUtils();
  const state = trpc.site.urgentFindings.useQuery();
  const save = trpc.site.setUrgentFindings.useMutation();
  const [picked, setPicked] = useState<Set<string> | null>(null);
  const [possibleToo, setPossibleToo] = useState<boolean | null>(null);
  if (!state.data) return <Spinner />;
  const chosen = picked ?? new Set(state.data.findings.filter((f) => f.urgent).map((f) => f.label));
  const alsoPossible = possibleToo ?? state.data.alsoPossible;
  const toggle = (label: string) => {
    const next = new Set(chosen);
    if (next.has(label)) next.delete(label);
    else next.add(label);
    setPicked(next);
  };
  const onSave = () =>
    save.mutate(
      { labels: [...chosen], alsoPossible },
      {
        onSuccess: (data) => {
          toast.success(SITE_MESSAGES.urgentSaved);
          setPicked(null);
          setPossibleToo(null);
          utils.site.urgentFindings.setData(undefined, data);
        },
        onError: (err) => toast.error(errorText(err, 'Could not save the urgent findings')),
      },
    );
  return (
    <section aria-labelledby="site-urgent-title" data-testid="site-urgent">
      <h2 id="site-urgent-title" className="section-title">
        Worklist urgency
      </h2>
      <p className="muted small">
        A study is Urgent only when a finding ticked here is called Likely (or, with the box below ticked, flagged
        Possible too). Any other flag, or the triage score alone, makes it Review; nothing flagged, Routine. Each Urgent
        row names the findings that made it so.
      </p>
      <fieldset className="site-propose">
        <legend>Urgent when called Likely</legend>
        {state.data.findings.map((f) => (
          <label key={f.label}>
            <input type="checkbox" checked={chosen.has(f.label)} onChange={() => toggle(f.label)} /> {f.display}
          </label>
        ))}
        <label>
          <input
            type="checkbox"
            data-testid="urgent-also-possible"
            checked={alsoPossible}
            onChange={() => setPossibleToo(!alsoPossible)}
          />{' '}
          Also Possible: a Possible flag (low confidence) of a ticked finding makes a study Urgent too
        </label>
        <button type="button" className="button button-primary" disabled={save.isPending} onClick={onSave}>
          Save
        </button>
      </fieldset>
    </section>
  );
}
