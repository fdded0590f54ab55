import type { TTimelineEntry } from '@contracts/schemas/timeline';

const W = 180;
const H = 56;
const PAD = 6;

interface TChartProps {
  label: string;
  display: string;
  entries: TTimelineEntry[];
}

/**
 * One finding's probability across the patient's analyses, oldest left, as a small inline SVG
 * line chart (0-100 % bottom to top). Points are coloured by the model's call; an analysis whose
 * model version does not report the finding leaves a gap rather than a made-up point.
 */
export function TimelineChart({ label, display, entries }: TChartProps) {
  const n = entries.length;
  const x = (i: number) => (n <= 1 ? W / 2 : PAD + (i * (W - 2 * PAD)) / (n - 1));
  const y = (p: number) => H - PAD - p * (H - 2 * PAD);
  const points = entries.map((e, i) => ({ i, p: e.findings[label], call: e.calls[label] }));
  const segments: string[] = [];
  let open = false;
  for (const pt of points) {
    if (pt.p === undefined) {
      open = false;
      continue;
    }
    segments.push(`${open ? 'L' : 'M'}${x(pt.i).toFixed(1)} ${y(pt.p).toFixed(1)}`);
    open = true;
  }
  const values = points
    .map((pt) => (pt.p === undefined ? 'not reported' : `${(pt.p * 100).toFixed(1)}% (${pt.call ?? ''})`))
    .join(', ');
  return (
    <figure className="timeline-chart">
      <figcaption>{display}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={`${display}: ${values}`}>
        <line x1={PAD} x2={W - PAD} y1={y(0)} y2={y(0)} className="timeline-axis" />
        <line x1={PAD} x2={W - PAD} y1={y(1)} y2={y(1)} className="timeline-axis" />
        <path d={segments.join(' ')} className="timeline-line" fill="none" />
        {points.map((pt) =>
          pt.p === undefined ? null : (
            <circle
              key={pt.i}
              cx={x(pt.i)}
              cy={y(pt.p)}
              r={3}
              className={`timeline-point timeline-${pt.call ?? 'negative'}`}
            >
              <title>{`${(pt.p * 100).toFixed(1)}% (${pt.call ?? ''})`}</title>
            </circle>
          ),
        )}
      </svg>
    </figure>
  );
}
