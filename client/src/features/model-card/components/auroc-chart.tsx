import { NOT_REPORTED } from '../format';

export interface TChartBar {
  key: string;
  label: string;
  value: number | null;
  /** Drawn as a whisker when the files report one. */
  ci95?: [number, number] | null;
  /** Marks a shipped finding's bar apart from the others. */
  emphasis?: boolean;
}

interface TAurocChartProps {
  id: string;
  title: string;
  description: string;
  bars: readonly TChartBar[];
}

const WIDTH = 720;
const LABEL_W = 250;
const VALUE_W = 80;
const ROW_H = 26;
const TOP = 8;
const AXIS_H = 30;
const PLOT_W = WIDTH - LABEL_W - VALUE_W;
const TICKS = [0, 0.25, 0.5, 0.75, 1];
const x = (v: number) => LABEL_W + Math.min(1, Math.max(0, v)) * PLOT_W;

/**
 * ROC AUC as horizontal bars with their 95 % interval as whiskers, on a 0-1 axis with the 0.5
 * line (a coin toss) marked. The files hold no ROC curve points, so the curves themselves cannot
 * be drawn; this shows exactly the figures the tables list.
 */
export function AurocChart({ id, title, description, bars }: TAurocChartProps) {
  const height = TOP + bars.length * ROW_H + AXIS_H;
  const axisY = TOP + bars.length * ROW_H;
  return (
    <figure className="mc-chart">
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} data-testid={id}>
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {TICKS.map((t) => (
          <g key={t}>
            <line x1={x(t)} x2={x(t)} y1={TOP} y2={axisY} className={t === 0.5 ? 'mc-chance' : 'mc-grid'} />
            <text x={x(t)} y={axisY + 16} textAnchor="middle" className="mc-tick">
              {t === 0.5 ? '0.5 (chance)' : t}
            </text>
          </g>
        ))}
        {bars.map((b, i) => {
          const y = TOP + i * ROW_H;
          const mid = y + ROW_H / 2;
          return (
            <g key={b.key} data-label={b.key}>
              <text x={LABEL_W - 8} y={mid + 4} textAnchor="end" className="mc-bar-label">
                {b.label}
              </text>
              {b.value === null ? null : (
                <rect
                  x={x(0)}
                  y={y + 5}
                  width={x(b.value) - x(0)}
                  height={ROW_H - 10}
                  className={b.emphasis ? 'mc-bar is-shipped' : 'mc-bar'}
                />
              )}
              {b.ci95 ? (
                <g className="mc-whisker">
                  <line x1={x(b.ci95[0])} x2={x(b.ci95[1])} y1={mid} y2={mid} />
                  <line x1={x(b.ci95[0])} x2={x(b.ci95[0])} y1={mid - 6} y2={mid + 6} />
                  <line x1={x(b.ci95[1])} x2={x(b.ci95[1])} y1={mid - 6} y2={mid + 6} />
                </g>
              ) : null}
              <text x={WIDTH - VALUE_W + 8} y={mid + 4} className="mc-bar-value">
                {b.value === null ? NOT_REPORTED : b.value.toFixed(3)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="muted small">{description}</figcaption>
    </figure>
  );
}
