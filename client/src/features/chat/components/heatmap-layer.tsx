import { useMemo } from 'react';
import type { THeatGrid } from '@contracts/heat-grid';
import { heatLayerSize, paintHeat } from '../lib/paint-heat';

/**
 * One finding's heatmap as a transparent layer over the film, painted in the browser from the
 * heat values the result keeps (issue 42), so every flagged finding has its own without an image
 * per finding on the server. Nothing is drawn where the browser has no 2D canvas.
 */
export function HeatmapLayer(props: { grid: THeatGrid; film: { width: number; height: number }; opacity: number }) {
  const { grid, film, opacity } = props;
  const src = useMemo(() => {
    const { width, height } = heatLayerSize(film);
    const pixels = paintHeat(grid, width, height);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = pixels ? canvas.getContext('2d') : null;
    if (!pixels || !ctx) return null;
    ctx.putImageData(new ImageData(pixels, width, height), 0, 0);
    return canvas.toDataURL('image/png');
  }, [grid, film]);
  if (!src) return null;
  return (
    <img
      className="chat-viewer-overlay"
      src={src}
      alt=""
      draggable={false}
      style={{ opacity }}
      data-testid="heatmap-overlay"
    />
  );
}
