import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { THeatGrid } from '@contracts/heat-grid';
import type { TAnatomy } from '@contracts/schemas/analysis';
import { AnatomyLegend, AnatomyOverlay, hasContours } from './anatomy-overlay';
import { HeatmapLayer } from './heatmap-layer';
import { HeatmapLegend } from './heatmap-legend';
import './xray-viewer.css';

const MIN_ZOOM = 1;
const MAX_ZOOM = 8;
const clampZoom = (z: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.round(z * 100) / 100));

interface TView {
  zoom: number;
  x: number;
  y: number;
}
const HOME: TView = { zoom: 1, x: 0, y: 0 };

/** A flagged finding's heatmap, chosen by finding in the viewer. */
export interface TViewerHeatmap {
  label: string;
  display: string;
  grid: THeatGrid;
}

interface TXrayViewerProps {
  src: string;
  /** The stored overlay (the film with one heatmap blended in), for analyses that kept no heat values. */
  overlaySrc: string | null;
  /** One heatmap per flagged finding (issue 42): when there are any, a selector picks which is drawn. */
  heatmaps?: TViewerHeatmap[];
  alt: string;
  /** Lung and heart outlines of the anatomy stage (model 2+), drawn over `src` when toggled on. */
  anatomy?: TAnatomy | null;
  /** The analysed image's size, until the film has loaded and tells its own. */
  imageSize?: { width: number; height: number } | null;
}

/**
 * The X-ray with zoom (buttons, wheel, +/-), pan (drag, arrow keys), a window control as
 * brightness and contrast, the heatmap of a flagged finding chosen by finding (or, for analyses
 * stored before heat values were kept, the one stored overlay, toggled) and, for models with an
 * anatomy stage, the lung and heart outlines as another.
 */
export function XrayViewer({
  src,
  overlaySrc,
  heatmaps = [],
  alt,
  anatomy = null,
  imageSize = null,
}: TXrayViewerProps) {
  const [view, setView] = useState<TView>(HOME);
  const [brightness, setBrightness] = useState(100);
  const [contrast, setContrast] = useState(100);
  const [overlay, setOverlay] = useState(false);
  // The finding whose heatmap is drawn; the stored overlay's finding comes first in the list.
  const [heatLabel, setHeatLabel] = useState(heatmaps[0]?.label ?? '');
  const heat = overlay ? (heatmaps.find((h) => h.label === heatLabel) ?? heatmaps[0] ?? null) : null;
  const [opacity, setOpacity] = useState(70);
  const [showAnatomy, setShowAnatomy] = useState(false);
  const [loaded, setLoaded] = useState<{ width: number; height: number } | null>(null);
  const natural = loaded ?? imageSize;
  const showing = heatmaps.length > 0 ? heat !== null && natural !== null : overlay && overlaySrc !== null;
  const hasOverlay = heatmaps.length > 0 || overlaySrc !== null;
  const drag = useRef<{ x: number; y: number; startX: number; startY: number } | null>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const ids = useId();

  const zoomBy = (factor: number) => setView((v) => ({ ...v, zoom: clampZoom(v.zoom * factor) }));
  const pan = (dx: number, dy: number) => setView((v) => ({ ...v, x: v.x + dx, y: v.y + dy }));

  // React's wheel listener is passive; zooming must stop the page from scrolling.
  useEffect(() => {
    const el = stageRef.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      setView((v) => ({ ...v, zoom: clampZoom(v.zoom * (e.deltaY < 0 ? 1.15 : 1 / 1.15)) }));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, startX: view.x, startY: view.y };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    setView((v) => ({ ...v, x: d.startX + (e.clientX - d.x) / v.zoom, y: d.startY + (e.clientY - d.y) / v.zoom }));
  };
  const endDrag = () => {
    drag.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = 20 / view.zoom;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => pan(step, 0),
      ArrowRight: () => pan(-step, 0),
      ArrowUp: () => pan(0, step),
      ArrowDown: () => pan(0, -step),
      '+': () => zoomBy(1.25),
      '=': () => zoomBy(1.25),
      '-': () => zoomBy(0.8),
      '0': () => setView(HOME),
    };
    const act = keys[e.key];
    if (act) {
      e.preventDefault();
      act();
    }
  };
  const reset = () => {
    setView(HOME);
    setBrightness(100);
    setContrast(100);
  };

  const transform = `scale(${view.zoom}) translate(${view.x}px, ${view.y}px)`;
  return (
    <section className="chat-viewer" aria-label="X-ray viewer">
      {/* eslint-disable jsx-a11y/no-noninteractive-tabindex, jsx-a11y/no-noninteractive-element-interactions --
          The one a11y exception: the film is announced as an image (its label says how to pan and
          zoom) and takes focus so the keys work; ARIA has no widget role for a pannable image, and
          every action is also a button or slider below. */}
      <div
        ref={stageRef}
        className="chat-viewer-stage"
        tabIndex={0}
        role="img"
        aria-label={`${alt}. Drag or use the arrow keys to pan, plus and minus to zoom, 0 to reset.`}
        aria-describedby={`${ids}-zoom`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onKeyDown={onKeyDown}
      >
        {/* eslint-enable jsx-a11y/no-noninteractive-tabindex, jsx-a11y/no-noninteractive-element-interactions */}
        {/* The window applies to the layer: the overlay is the film with the heatmap blended in. */}
        <div
          className="chat-viewer-layer"
          style={{ transform, filter: `brightness(${brightness}%) contrast(${contrast}%)` }}
        >
          <img
            src={src}
            alt=""
            draggable={false}
            onLoad={(e) => setLoaded({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
          />
          {heat && natural ? <HeatmapLayer grid={heat.grid} film={natural} opacity={opacity / 100} /> : null}
          {heatmaps.length === 0 && overlay && overlaySrc ? (
            <img
              className="chat-viewer-overlay"
              src={overlaySrc}
              alt=""
              draggable={false}
              style={{ opacity: opacity / 100 }}
              data-testid="heatmap-overlay"
            />
          ) : null}
        </div>
        {/* Outlines on their own layer: same pan and zoom, but the window must not dim their colours. */}
        {showAnatomy && hasContours(anatomy) && natural ? (
          <div className="chat-viewer-layer" style={{ transform }}>
            <AnatomyOverlay contours={anatomy.contours} width={natural.width} height={natural.height} />
          </div>
        ) : null}
      </div>
      <div className="chat-viewer-controls">
        <div className="chat-viewer-row" role="group" aria-label="Zoom">
          <button
            type="button"
            className="icon-button icon-button-outline"
            onClick={() => zoomBy(0.8)}
            aria-label="Zoom out"
            disabled={view.zoom <= MIN_ZOOM}
          >
            −
          </button>
          <output id={`${ids}-zoom`} className="chat-viewer-zoom" aria-live="polite">
            {Math.round(view.zoom * 100)}%
          </output>
          <button
            type="button"
            className="icon-button icon-button-outline"
            onClick={() => zoomBy(1.25)}
            aria-label="Zoom in"
            disabled={view.zoom >= MAX_ZOOM}
          >
            +
          </button>
          <button type="button" className="button button-link" onClick={reset}>
            Reset view
          </button>
          {hasOverlay ? (
            <label className="chat-viewer-toggle">
              <input type="checkbox" checked={overlay} onChange={(e) => setOverlay(e.target.checked)} /> Heatmap overlay
            </label>
          ) : null}
          {heatmaps.length > 0 ? (
            <label className="chat-viewer-toggle">
              Heatmap of
              <select
                value={heat?.label ?? heatLabel}
                onChange={(e) => {
                  setHeatLabel(e.target.value);
                  setOverlay(true);
                }}
              >
                {heatmaps.map((h) => (
                  <option key={h.label} value={h.label}>
                    {h.display}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {hasContours(anatomy) ? (
            <button type="button" className="button button-link" onClick={() => setShowAnatomy((v) => !v)}>
              {showAnatomy ? 'Hide anatomy' : 'Show anatomy'}
            </button>
          ) : null}
          {showAnatomy && hasContours(anatomy) ? <AnatomyLegend /> : null}
        </div>
        <div className="chat-viewer-row">
          <label className="chat-viewer-slider">
            Brightness
            <input
              type="range"
              min={30}
              max={250}
              value={brightness}
              onChange={(e) => setBrightness(Number(e.target.value))}
            />
          </label>
          <label className="chat-viewer-slider">
            Contrast
            <input
              type="range"
              min={30}
              max={300}
              value={contrast}
              onChange={(e) => setContrast(Number(e.target.value))}
            />
          </label>
          {showing ? (
            <label className="chat-viewer-slider">
              Overlay opacity
              <input
                type="range"
                min={10}
                max={100}
                value={opacity}
                onChange={(e) => setOpacity(Number(e.target.value))}
              />
            </label>
          ) : null}
        </div>
        {showing ? <HeatmapLegend opacityPercent={opacity} /> : null}
      </div>
    </section>
  );
}
