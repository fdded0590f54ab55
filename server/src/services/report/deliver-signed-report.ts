import type { AppDeps } from '../../deps.js';
import type { TReport } from '@contracts/schemas/report.js';
import { loadOruStudy } from './hl7/load-oru-study.js';
import { sendReportHl7 } from './hl7/send-report-hl7.js';

/**
 * A signed (or amended) report on its way to the hospital (issue 41): HL7 ORU^R01 to the RIS
 * when REPORT_HL7_DESTINATION is set. Behind the signature's answer: a RIS that is slow or away
 * must not hold the reader, and the retries log what failed.
 */
export function deliverSignedReport(opts: Pick<AppDeps, 'db' | 'config' | 'log'> & { report: TReport }): Promise<void> {
  const { db, config, log, report } = opts;
  if (!config.REPORT_HL7_DESTINATION) return Promise.resolve();
  return loadOruStudy({ db, analysisId: report.analysisId })
    .then((study) => sendReportHl7({ config, log, report, study }))
    .then(
      (sent) => {
        if (!sent) log.error({ analysisId: report.analysisId }, 'the signed report did not reach the RIS');
      },
      (err: unknown) => log.error({ err }, 'could not deliver the signed report'),
    );
}
