import type { TCandidate } from '../parse-model-card';
import type { TGroup } from '../parse-evaluation-tables';
import { count, NOT_REPORTED, ratio, share } from '../format';
import { AurocChart } from './auroc-chart';

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** 'covid19' (from 'calledCovid19') -> the finding's display name from the files, else the key. */
export function outputName(output: string, candidates: readonly TCandidate[]): string {
  return candidates.find((c) => squash(c.label) === squash(output))?.display ?? output;
}

function GroupTable({
  kind,
  groups,
  candidates,
}: {
  kind: string;
  groups: readonly TGroup[];
  candidates: readonly TCandidate[];
}) {
  const outputs = [...new Set(groups.flatMap((g) => g.labels.flatMap((l) => Object.keys(l.called))))];
  return (
    <table className="model-figures mc-table" data-testid={`group-table-${kind.replace(/\s+/g, '-')}`}>
      <caption>
        Per {kind}: share of films called positive at the shipped thresholds, by the label the{' '}
        {kind === 'source' ? 'source' : 'data set'} gives
      </caption>
      <thead>
        <tr>
          <th scope="col">{kind.charAt(0).toUpperCase() + kind.slice(1)}</th>
          <th scope="col">Label in the data</th>
          <th scope="col">n</th>
          {outputs.map((o) => (
            <th scope="col" key={o}>
              Called {outputName(o, candidates)}
            </th>
          ))}
        </tr>
      </thead>
      {groups.map((g) => (
        <tbody key={g.name}>
          {g.labels.length === 0 ? (
            <tr>
              <th scope="row">{g.name}</th>
              <td colSpan={2 + outputs.length}>
                {count(g.n)} films; per-label calls {NOT_REPORTED}
              </td>
            </tr>
          ) : (
            g.labels.map((l, i) => (
              <tr key={l.label}>
                {i === 0 ? (
                  <th scope="rowgroup" rowSpan={g.labels.length}>
                    {g.name} <span className="muted">({count(g.n)})</span>
                  </th>
                ) : null}
                <td>{l.label}</td>
                <td>{count(l.n)}</td>
                {outputs.map((o) => (
                  <td key={o}>{share(ratio(l.called[o] ?? null, l.n))}</td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      ))}
    </table>
  );
}

/** Per source and per age group, from metrics.json `groups` (or evaluation.json `byGroup`). */
export function GroupTables({ groups, candidates }: { groups: readonly TGroup[]; candidates: readonly TCandidate[] }) {
  if (groups.length === 0) return <p className="muted">Per-source and per-age-group figures: {NOT_REPORTED}.</p>;
  const kinds = [...new Set(groups.map((g) => g.kind))];
  const outputs = [...new Set(groups.flatMap((g) => g.aucs.map((a) => a.output)))];
  return (
    <>
      {kinds.map((k) => (
        <GroupTable key={k} kind={k} groups={groups.filter((g) => g.kind === k)} candidates={candidates} />
      ))}
      {outputs.map((o) => (
        <AurocChart
          key={o}
          id={`group-auroc-${o}`}
          title={`ROC AUC of the ${outputName(o, candidates)} output within each group`}
          description={`ROC AUC of the ${outputName(o, candidates)} output inside each source and age group (no interval is reported per group; "not reported" where a group has only one class).`}
          bars={kinds
            .flatMap((k) => groups.filter((g) => g.kind === k))
            .map((g) => ({
              key: `${g.kind}=${g.name}`,
              label: `${g.kind}: ${g.name}`,
              value: g.aucs.find((a) => a.output === o)?.auc ?? null,
            }))}
        />
      ))}
    </>
  );
}
