import type { TAnatomy } from '@contracts/schemas/analysis';
import './anatomy-overlay.css';

/**
 * The anatomy stage's lung and heart outlines over the film. The outer viewBox has the film's
 * own size with "meet", which letterboxes exactly like the image's object-fit: contain; the
 * inner one maps the unit square of the contours onto the film ("none": x and y scale apart).
 */
export function AnatomyOverlay({
  contours,
  width,
  height,
}: {
  contours: TAnatomy['contours'];
  width: number;
  height: number;
}) {
  return (
    <svg
      className="chat-viewer-anatomy"
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="xMidYMid meet"
      aria-hidden="true"
      data-testid="anatomy-overlay"
    >
      <svg x={0} y={0} width={width} height={height} viewBox="0 0 1 1" preserveAspectRatio="none">
        {contours.lung ? (
          <path
            className="chat-anatomy-lung"
            d={contours.lung}
            vectorEffect="non-scaling-stroke"
            data-testid="lung-contour"
          />
        ) : null}
        {contours.heart ? (
          <path
            className="chat-anatomy-heart"
            d={contours.heart}
            vectorEffect="non-scaling-stroke"
            data-testid="heart-contour"
          />
        ) : null}
      </svg>
    </svg>
  );
}

/** Colour key of the outlines, shown next to the toggle while they are on. */
export function AnatomyLegend() {
  return (
    <span className="chat-anatomy-legend">
      <span className="chat-anatomy-key is-lung" aria-hidden="true" /> Lung fields
      <span className="chat-anatomy-key is-heart" aria-hidden="true" /> Heart
    </span>
  );
}

/** Whether there is anything to draw. */
export const hasContours = (anatomy: TAnatomy | null | undefined): anatomy is TAnatomy =>
  !!anatomy && (anatomy.contours.lung.trim() !== '' || anatomy.contours.heart.trim() !== '');
