import { COMBINED_TRANSFORMS, DEVICE_TRANSFORMS } from './lib/device-transforms.ts';
import { formatResults, runTransforms } from './lib/people-robustness.ts';
import { MOUSE_DATA_DIR } from './lib/traces.ts';

/**
 * `npm run eval:people [-- folder,folder]`: the people-robustness report (lib/people-robustness.ts).
 * Recorded movements of each folder of fixtures/mouse-dev (or WARDEN_EVAL_MOUSE_DIR), delivered
 * as other devices and people would (lib/device-transforms.ts), scored by the engine as the login
 * of a clean desktop Chrome. Prints per transform the pages with a behaviour or input tell, those
 * not allowed, and which positive signals fired on how many pages. Seconds; deterministic.
 */
const folders = (process.argv[2] ?? 'circles_human_pc1,circles_bot_pynput,circles_bot_pyhm').split(',');
console.info(`people robustness: ${MOUSE_DATA_DIR}, a page per trace (it and the next two)\n`);
for (const t of [...DEVICE_TRANSFORMS, ...COMBINED_TRANSFORMS])
  console.info(`  ${t.id.padEnd(26)} ${t.label}`);
for (const folder of folders)
  console.info(
    `\n${formatResults(folder, runTransforms(folder, [...DEVICE_TRANSFORMS, ...COMBINED_TRANSFORMS]))}`,
  );
