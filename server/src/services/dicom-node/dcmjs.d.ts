// dcmjs ships no declaration file; these are the few parts of its data API this project uses.
declare module 'dcmjs' {
  type TNaturalDataset = Record<string, unknown>;
  type TDenaturalDataset = Record<string, { vr: string; Value?: unknown[] }>;
  class DicomDict {
    constructor(meta: TDenaturalDataset);
    meta: TDenaturalDataset;
    dict: TDenaturalDataset;
    write(options?: Record<string, unknown>): ArrayBuffer;
  }
  const dcmjs: {
    data: {
      DicomDict: typeof DicomDict;
      DicomMessage: { readFile(buffer: ArrayBuffer, options?: Record<string, unknown>): DicomDict };
      DicomMetaDictionary: {
        uid(): string;
        naturalizeDataset(ds: TDenaturalDataset): TNaturalDataset;
        denaturalizeDataset(ds: TNaturalDataset): TDenaturalDataset;
      };
    };
    /** The tests read the SRs the node sends as OHIF does, through the Cornerstone3D adapter. */
    adapters: {
      Cornerstone3D: {
        MeasurementReport: {
          generateToolState(
            dataset: TNaturalDataset,
            sopInstanceUidToImageId: Record<string, string>,
            imageToWorldCoords: (imageId: string, point: number[]) => number[],
            metadata: { get(type: string, imageId: string): unknown },
          ): Record<string, unknown[]>;
        };
      };
    };
  };
  export default dcmjs;
}
