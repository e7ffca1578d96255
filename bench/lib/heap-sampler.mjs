// Preloaded into Warden by `npm run bench:alloc` (node --import): on SIGUSR2 the main thread's
// sampling heap profiler starts, keeping the samples of objects already collected (so the profile
// is every allocation, not what is alive); at exit the profile is written to WARDEN_HEAP_PROFILE.
// With WARDEN_HEAP_SURVIVORS=1 it drops the objects a scavenge collected: what is left survived
// the young generation (promoted to the old one, where only a mark-compact frees it), the bytes
// each scavenge copies and so what makes it long.
import fs from 'node:fs';
import inspector from 'node:inspector';
import { isMainThread } from 'node:worker_threads';

const out = process.env.WARDEN_HEAP_PROFILE;
if (isMainThread && out) {
  const session = new inspector.Session();
  session.connect();
  let started = false;
  process.on('SIGUSR2', () => {
    const options = {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: process.env.WARDEN_HEAP_SURVIVORS !== '1',
    };
    session.post('HeapProfiler.startSampling', options, (err) => {
      if (err) console.error(err);
      else started = true;
    });
  });
  // An in-process session answers synchronously, so the profile is written before the exit.
  process.on('exit', () => {
    if (!started) return;
    session.post('HeapProfiler.stopSampling', (err, result) => {
      if (err) console.error(err);
      else fs.writeFileSync(out, JSON.stringify(result.profile));
    });
  });
}
