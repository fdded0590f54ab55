import { useId } from 'react';
import { colourMap, DRAW_FROM, MAX_ALPHA, overlayAlpha } from '@contracts/heatmap-look';
import './heatmap-legend.css';

const STOPS = 9;

/** The scale as a CSS gradient from the first drawn level to full heat, each stop at its own opacity. */
function gradient(opacityScale: number): string {
  const stops = Array.from({ length: STOPS }, (_, i) => {
    const v = DRAW_FROM + ((1 - DRAW_FROM) * i) / (STOPS - 1);
    const [r, g, b] = colourMap(v);
    // The smallest drawn level has opacity 0; show its colour faintly so the low end stays visible.
    const a = Math.max(overlayAlpha(v), 0.08) * opacityScale;
    return `rgba(${r}, ${g}, ${b}, ${a.toFixed(3)}) ${Math.round((i / (STOPS - 1)) * 100)}%`;
  });
  return `linear-gradient(to right, ${stops.join(', ')})`;
}

/**
 * What the overlay's colours mean, drawn from the same colour map and opacities the worker paints
 * with (contracts/heatmap-look.ts). The slider scales the overlay's opacity, so it scales this too.
 */
export function HeatmapLegend({ opacityPercent }: { opacityPercent: number }) {
  const fullOpacity = Math.round(MAX_ALPHA * opacityPercent);
  const captionId = useId();
  return (
    <figure className="heatmap-legend" aria-labelledby={captionId}>
      <div
        className="heatmap-legend-bar"
        style={{ backgroundImage: gradient(opacityPercent / 100) }}
        aria-hidden="true"
      />
      <div className="heatmap-legend-ends" aria-hidden="true">
        <span>Low</span>
        <span>High</span>
      </div>
      <figcaption id={captionId} className="muted small">
        Heatmap: the regions that weighed most in the model&apos;s findings. High (red) marks the strongest region of
        this film, low (blue) the weakest drawn; the scale is relative to this film, not a probability. Regions below{' '}
        {Math.round(DRAW_FROM * 100)}% of the strongest are not coloured; full heat covers the film at {fullOpacity}%
        opacity.
      </figcaption>
    </figure>
  );
}
