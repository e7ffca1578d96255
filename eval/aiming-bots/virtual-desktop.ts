import type { BehaviorEvidence } from '@warden/protocol';
import type { ScreenLayout } from '../browsers/desktop-input.ts';
import { PageRecorder } from '../lib/recorder.ts';

/**
 * Runs an xdotool script (the lines eval/browsers/desktop-input.ts writes) on a virtual desktop and
 * returns what the SDK's recorder would send when the form is submitted: pointer moves at the
 * script's times in page pixels, presses timed from `mousedown` to `mouseup`, keys from `keydown`
 * to `keyup`. Each command takes `commandMs` (xdotool's own round trip to the X server).
 */
export function recordScript(
  lines: readonly string[],
  layout: Pick<ScreenLayout, 'content'>,
  commandMs = 0.4,
): BehaviorEvidence {
  const page = new PageRecorder();
  const { x: left, y: top } = layout.content;
  let t = 500; // the page loaded half a second before the script's first command
  let at = { x: 0, y: 0 };
  let down: { t: number; x: number; y: number } | undefined;
  const keysDown = new Map<string, number>();
  let typed = 0;
  for (const line of lines) {
    const [cmd, ...args] = line.split(' ');
    if (cmd === 'sleep') {
      t += Number(args[0]) * 1000;
      continue;
    }
    t += commandMs;
    if (cmd === 'mousemove') {
      at = { x: Number(args[0]) - left, y: Number(args[1]) - top };
      page.move([[t, at.x, at.y]]);
    } else if (cmd === 'mousedown') {
      down = { t, ...at };
    } else if (cmd === 'mouseup' && down) {
      page.click(down.t, down.x, down.y, 0, t - down.t);
      down = undefined;
    } else if (cmd === 'click') {
      page.click(t, at.x, at.y, 0, 1);
    } else if (cmd === 'keydown') {
      keysDown.set(args[0]!, t);
    } else if (cmd === 'keyup') {
      const from = keysDown.get(args[0]!);
      keysDown.delete(args[0]!);
      if (from !== undefined && !args[0]!.startsWith('Shift')) {
        page.key(from, t - from);
        typed++;
      }
    } else if (cmd === 'type') {
      const text = args.slice(2).join(' ');
      for (const _ of text) {
        page.key(t, 1);
        t += Number(args[1]);
        typed++;
      }
    }
  }
  if (typed > 0) page.field('typed', typed);
  return page.snapshot(t + 50);
}
