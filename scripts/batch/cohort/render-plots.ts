import sharp from 'sharp';
import type { TBatchSummary } from '@contracts/schemas/batch-summary.js';

/** Colour-blind-safe (Okabe-Ito), in legend order. */
const COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
const SIZE = 640;
const PAD = { left: 70, right: 20, top: 50, bottom: 70 };
const PLOT = SIZE - PAD.left - PAD.right;
// A square plot area, with room below it for the ticks and the axis label.
const BOTTOM = PAD.top + PLOT;
const HEIGHT = BOTTOM + PAD.bottom;

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
const x = (v: number) => (PAD.left + v * PLOT).toFixed(1);
const y = (v: number) => (PAD.top + (1 - v) * PLOT).toFixed(1);

export interface TCurve {
  name: string;
  points: readonly [number, number][];
  /** Where the operating point lies, drawn as a dot. */
  marker?: [number, number] | null;
  /** Draw every point as a dot too (a reliability diagram's bins). */
  dots?: boolean;
}

/** A square unit plot with axes, grid, the diagonal and one line per curve, as SVG text. */
export function unitPlotSvg(opts: {
  title: string;
  xLabel: string;
  yLabel: string;
  curves: readonly TCurve[];
  /** The corner the curves leave free: lower right for ROC curves, upper left for a reliability diagram. */
  legendAt: 'bottom-right' | 'top-left';
}): string {
  const legendX = opts.legendAt === 'bottom-right' ? 0.42 : 0.03;
  const legendTop = opts.legendAt === 'bottom-right' ? PAD.top + PLOT - 12 - opts.curves.length * 18 : PAD.top + 12;
  const ticks = [0, 0.2, 0.4, 0.6, 0.8, 1];
  const grid = ticks.map(
    (t) =>
      `<line x1="${x(t)}" y1="${y(0)}" x2="${x(t)}" y2="${y(1)}" stroke="#ddd"/>` +
      `<line x1="${x(0)}" y1="${y(t)}" x2="${x(1)}" y2="${y(t)}" stroke="#ddd"/>` +
      `<text x="${x(t)}" y="${Number(y(0)) + 18}" text-anchor="middle">${t.toFixed(1)}</text>` +
      `<text x="${Number(x(0)) - 8}" y="${Number(y(t)) + 4}" text-anchor="end">${t.toFixed(1)}</text>`,
  );
  const colourOf = (i: number) => COLOURS[i % COLOURS.length]!;
  const lines = opts.curves.map((c, i) => {
    const path = c.points.map(([px, py]) => `${x(px)},${y(py)}`).join(' ');
    const dots = [...(c.marker ? [c.marker] : []), ...(c.dots ? c.points : [])]
      .map(([mx, my]) => `<circle cx="${x(mx)}" cy="${y(my)}" r="${c.dots ? 3.5 : 5}" fill="${colourOf(i)}"/>`)
      .join('');
    return `<polyline points="${path}" fill="none" stroke="${colourOf(i)}" stroke-width="2"/>${dots}`;
  });
  // Drawn over the curves on a white card, so it stays readable where a curve runs through that corner.
  const legend = [
    `<rect x="${Number(x(legendX)) - 6}" y="${legendTop}" width="${PLOT * 0.56}" height="${opts.curves.length * 18 + 8}" fill="white" fill-opacity="0.85"/>`,
    ...opts.curves.map((c, i) => {
      const legendY = legendTop + (i + 1) * 18;
      return (
        `<rect x="${x(legendX)}" y="${legendY - 9}" width="14" height="4" fill="${colourOf(i)}"/>` +
        `<text x="${Number(x(legendX)) + 20}" y="${legendY - 3}">${escapeXml(c.name)}</text>`
      );
    }),
  ];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${SIZE}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${SIZE / 2}" y="28" text-anchor="middle" font-size="16">${escapeXml(opts.title)}</text>`,
    ...grid,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#999" stroke-dasharray="4 4"/>`,
    `<rect x="${x(0)}" y="${y(1)}" width="${PLOT}" height="${PLOT}" fill="none" stroke="#333"/>`,
    ...lines,
    ...legend,
    `<text x="${x(0.5)}" y="${BOTTOM + 42}" text-anchor="middle">${escapeXml(opts.xLabel)}</text>`,
    `<text transform="translate(20 ${y(0.5)}) rotate(-90)" text-anchor="middle">${escapeXml(opts.yLabel)}</text>`,
    '</svg>',
  ].join('\n');
}

/** The ROC curves (per finding, with its operating point) and the reliability diagram, as PNG. */
export async function renderPlots(
  summary: TBatchSummary,
  roc: readonly { finding: string; points: readonly [number, number][] }[],
): Promise<{ roc: Buffer; calibration: Buffer }> {
  const rocCurves = roc.flatMap(({ finding, points }): TCurve[] => {
    const f = summary.findings.find((s) => s.finding === finding);
    if (!f || f.auroc === null || !points.length) return [];
    const marker: [number, number] | null =
      f.sensitivity !== null && f.specificity !== null ? [1 - f.specificity, f.sensitivity] : null;
    return [{ name: `${finding} AUROC ${f.auroc.toFixed(3)} (${f.positives}+/${f.negatives}−)`, points, marker }];
  });
  const calibrationCurves = summary.calibration.flatMap((c): TCurve[] => {
    const points = c.bins.flatMap((b): [number, number][] =>
      b.meanPredicted === null || b.observed === null ? [] : [[b.meanPredicted, b.observed]],
    );
    return points.length ? [{ name: `${c.finding} ECE ${c.ece?.toFixed(3)} (n=${c.n})`, points, dots: true }] : [];
  });
  const svgToPng = (svg: string) => sharp(Buffer.from(svg)).png().toBuffer();
  return {
    roc: await svgToPng(
      unitPlotSvg({
        title: 'ROC curves (dot: operating point)',
        xLabel: '1 − specificity (false-positive rate)',
        yLabel: 'sensitivity (true-positive rate)',
        curves: rocCurves,
        legendAt: 'bottom-right',
      }),
    ),
    calibration: await svgToPng(
      unitPlotSvg({
        title: 'Reliability diagram (10 bins)',
        xLabel: 'mean predicted probability',
        yLabel: 'observed fraction positive',
        curves: calibrationCurves,
        legendAt: 'top-left',
      }),
    ),
  };
}
