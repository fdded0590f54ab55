import { DEVICES_NOT_ASSESSED } from '../../report/draft-sections.js';
import { closing } from './grounded-scope.js';

/**
 * Lines, tubes, pacemakers and other devices: no model here has an output for them, so the answer
 * says so and never says whether one is there (a film with a pacemaker gets the same words).
 */
export function devicesAnswer(): string {
  return (
    'The model does **not assess lines, tubes, pacemakers or other devices**: it has no output for them, ' +
    'so it cannot say whether one is there, where its tip lies or whether it is well placed. ' +
    'A reader must check every line, tube and device on the film itself.\n\n' +
    `The drafted report says the same: "${DEVICES_NOT_ASSESSED}"\n\n` +
    "A device can also draw the model's heatmap (the map can light up devices, markers or text), so a flag near one deserves a second look." +
    closing
  );
}
