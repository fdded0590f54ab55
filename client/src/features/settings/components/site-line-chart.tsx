/** One series of a small line chart: a value per x position, null where there is no value. */
export interface TSeries {
  name: string;
  values: readonly (number | null)[];
}

interface TLineChartProps {
  title: string;
  xLabels: readonly string[];
  series: readonly TSeries[];
  /** The y axis runs from 0 to this (or the largest value, if higher). */
  yMax: number;
  /** A dashed horizontal line, e.g. the PSI alert level or the agreement floor. */
  limit?: { value: number; label: string } | undefined;
  kind?: 'line' | 'bar';
}

const W = 520;
const H = 180;
const PAD = { l: 40, r: 12, t: 12, b: 28 };
const COLOURS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed'];

/** A dependency-free inline SVG chart for the monitor (the CSP forbids inline scripts, not SVG). */
export function SiteLineChart({ title, xLabels, series, yMax, limit, kind = 'line' }: TLineChartProps) {
  const top = Math.max(yMax, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null)));
  const n = Math.max(1, xLabels.length);
  const x = (i: number) => PAD.l + ((W - PAD.l - PAD.r) * (i + 0.5)) / n;
  const y = (v: number) => H - PAD.b - ((H - PAD.t - PAD.b) * v) / (top || 1);
  const bw = ((W - PAD.l - PAD.r) / n / Math.max(1, series.length)) * 0.8;
  return (
    <figure className="site-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title}>
        <line x1={PAD.l} y1={H - PAD.b} x2={W - PAD.r} y2={H - PAD.b} stroke="currentColor" strokeOpacity={0.4} />
        {/* Counts (analyses per week) read as whole numbers; rates and PSI with two decimals. */}
        <text x={PAD.l - 4} y={y(top) + 4} textAnchor="end" fontSize={10}>
          {Number.isInteger(top) ? String(top) : top.toFixed(2)}
        </text>
        <text x={PAD.l - 4} y={H - PAD.b} textAnchor="end" fontSize={10}>
          0
        </text>
        {xLabels.map((l, i) => (
          <text key={l} x={x(i)} y={H - 10} textAnchor="middle" fontSize={9}>
            {l.slice(5)}
          </text>
        ))}
        {limit ? (
          <g>
            <line
              x1={PAD.l}
              x2={W - PAD.r}
              y1={y(limit.value)}
              y2={y(limit.value)}
              stroke="#dc2626"
              strokeDasharray="4 3"
            />
            <text x={W - PAD.r} y={y(limit.value) - 3} textAnchor="end" fontSize={9} fill="#dc2626">
              {limit.label}
            </text>
          </g>
        ) : null}
        {series.map((s, si) => {
          const colour = COLOURS[si % COLOURS.length];
          if (kind === 'bar') {
            return s.values.map((v, i) =>
              v === null ? null : (
                <rect
                  key={`${s.name}-${i}`}
                  x={x(i) - (bw * series.length) / 2 + si * bw}
                  y={y(v)}
                  width={bw}
                  height={H - PAD.b - y(v)}
                  fill={colour}
                >
                  <title>{`${s.name} ${xLabels[i] ?? ''}: ${v}`}</title>
                </rect>
              ),
            );
          }
          const pts = s.values
            .map((v, i) => (v === null ? null : `${x(i)},${y(v)}`))
            .filter((p): p is string => p !== null);
          return (
            <g key={s.name}>
              <polyline points={pts.join(' ')} fill="none" stroke={colour} strokeWidth={2} />
              {s.values.map((v, i) =>
                v === null ? null : (
                  <circle key={i} cx={x(i)} cy={y(v)} r={3} fill={colour}>
                    <title>{`${s.name} ${xLabels[i] ?? ''}: ${v.toFixed(3)}`}</title>
                  </circle>
                ),
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="small">
        <strong>{title}</strong>{' '}
        {series.map((s, si) => (
          <span key={s.name} className="site-chart-key">
            <span aria-hidden="true" style={{ color: COLOURS[si % COLOURS.length] }}>
              ■
            </span>{' '}
            {s.name}{' '}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
