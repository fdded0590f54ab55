import { TAG, type DataSet } from './dicom-lib.js';
import type { TPixelLayout } from './read-frame.js';
import type { TVoi } from './render-gray.js';

function windowOf(ds: DataSet): TVoi | null {
  const center = ds.floatString(TAG.windowCenter, 0);
  const width = ds.floatString(TAG.windowWidth, 0);
  if (center === undefined || width === undefined || !Number.isFinite(center) || !(width >= 1)) return null;
  const fnText = ds.string(TAG.voiLutFunction)?.trim().toUpperCase();
  const fn = fnText === 'SIGMOID' || fnText === 'LINEAR_EXACT' ? fnText : 'LINEAR';
  return { kind: 'window', center, width, fn };
}

function lutOf(ds: DataSet, layout: TPixelLayout): TVoi | null {
  const item = ds.elements[TAG.voiLutSequence]?.items?.[0]?.dataSet;
  const dataEl = item?.elements[TAG.lutData];
  if (!item || !dataEl) return null;
  const entries = item.uint16(TAG.lutDescriptor, 0) || 65536;
  const rawFirst = item.uint16(TAG.lutDescriptor, 1) ?? 0;
  // The first mapped value is signed when the pixel values are.
  const firstMapped = layout.pixelRepresentation === 1 && rawFirst >= 32768 ? rawFirst - 65536 : rawFirst;
  const bits = item.uint16(TAG.lutDescriptor, 2) ?? 16;
  const data: number[] = [];
  const wide = dataEl.length >= entries * 2;
  for (let i = 0; i < entries; i++) {
    data.push(wide ? (item.uint16(TAG.lutData, i) ?? 0) : (item.byteArray[dataEl.dataOffset + i] ?? 0));
  }
  return { kind: 'lut', firstMapped, bits, data };
}

/**
 * The VOI transform a viewer would apply: the file's first window (centre/width) when it has one,
 * else its VOI LUT, else the full range of the image.
 */
export function readVoi(ds: DataSet, layout: TPixelLayout): TVoi {
  return windowOf(ds) ?? lutOf(ds, layout) ?? { kind: 'minmax' };
}
