import type { Signal } from '../engine-types.ts';
import type { Features } from '../features.ts';
import { emit, type SignalFamily } from './types.ts';

/** Input mechanics: see docs/signals.md. */
export const INPUT = {
  /** Clicks needed before "no pointer approach" counts. */
  minClicks: 2,
  /** Keys needed before the dwell check counts, and the share held under FAST_DWELL_MS. */
  minKeys: 5,
  fastDwellShare: 0.5,
  /** Clicks the pointer jumped to (≤ 1 sample in the second before) before `click_teleport`. */
  teleportClicks: 2,
  /** Clicks at an element's exact centre, or at an earlier click's exact position, before `click_exact_position`. */
  exactClicks: 2,
  /**
   * MAD / median of key-down gaps (20+ keys) under this is a fixed typing delay: bots measure
   * 0.005–0.033, people 0.145–0.305; short samples of people reach ~0.06.
   */
  keyRhythmSpread: 0.05,
  /**
   * …or, on a desktop, this share or more of the key-down gaps and holds sit on their floor
   * (input-metrics.ts `keyFloor`): a fixed delay on a busy machine, whose stray delays widen the
   * spread but never go below the delay. A log-normal person: 2.5–4 % expected, at most 22 % in
   * 60,000 generated sessions of 20–50 keys. xdotool `type --delay 90`: 26–95 % at load average
   * 4–8, 28–35 % in visits at ≈ 10 that the spread missed, 2–16 % under heavier load (missed).
   */
  keyFloorShare: 0.25,
  /**
   * …and this share or more in each set, gaps and holds alike: a fixed delay floors both. A real
   * typist with very steady holds (CMU benchmark subject s036: holds 33–60 ms, log-σ 0.13, slow
   * varied gaps) put 11 of 22 holds and no gap on the floor, 26–28 % pooled (`npm run
   * eval:typists`). Real people (475 pages): gaps at most 19 % on their floor, holds 33 %,
   * pooled 22.6 % (2–3 pages carry both sets over this share, kept apart by `keyFloorShare` alone).
   */
  keyFloorEachShare: 0.1,
  /**
   * `key_speed_superhuman` (desktop, input-metrics.ts `keySpeed`: 19+ key-down gaps and holds):
   * the median key-down gap under speedGapMedianMs and the median hold under speedHoldMedianMs.
   * People (Dhakal et al. 2018, 168,000 typists): mean inter-key interval 238 ms, the fastest
   * 120 wpm (100 ms a key) on prose, slower on credentials; holds 70–130 ms, fast typists too
   * (rollover shortens gaps, not holds). Loaded `xdotool type --delay 90`: gaps 47–70 ms, holds
   * 22–40 ms. See docs/signals.md "Typing faster than hands".
   */
  speedGapMedianMs: 80,
  speedHoldMedianMs: 50,
  /**
   * Mouse presses needed before `click_instant_release`, and the share of them released under 15 ms
   * (people hold a button 50–150 ms; the DELBOT human traces never under 55 ms; `page.click`, CDP
   * kits and `xdotool click` release in 0–11 ms).
   */
  minPresses: 2,
  quickPressShare: 2 / 3,
  /**
   * `pointer_geometry_mismatch` (automation family): the window reports no chrome at all
   * (|outer − inner| ≤ frameChromePx) yet its mouse events put the viewport more than
   * frameOffsetPx from the window's corner, consistently (per-event spread ≤ frameSpreadPx, so
   * zoom, which scales client coordinates, never qualifies) over frameMinSamples events.
   */
  frameChromePx: 1,
  frameOffsetPx: 30,
  frameSpreadPx: 2,
  frameMinSamples: 2,
  /**
   * `pointer_subpixel`: mouse moves judged (`behavior.pointer_grid`) and the share of them off the
   * platform's pointer grid. CDP ghost-cursor: 98–99.5 % off; xdotool and replayed people: 0 %.
   */
  gridMinMoves: 20,
  gridOffShare: 0.5,
};

/** Desktop pointer and keyboard: phones and touch screens tap without moves and commit keys at once. */
function desktop(f: Features): boolean {
  return !f.ua_mobile && f.behavior.present && f.behavior.touches === 0;
}

/** Clicks that arrive with no pointer movement towards them (page.click(), element teleports). */
export function clicksWithoutApproach(f: Features): boolean {
  const b = f.behavior;
  return desktop(f) && b.clicks >= INPUT.minClicks && b.mouse_moves <= b.clicks;
}

/**
 * The pointer moved on the page, but jumped to most of the clicks (two or more): at most one
 * sample in the second before each, away from the previous click. Counted once with
 * `click_without_movement` (which covers pages with no movement at all).
 */
export function clicksTeleported(f: Features): boolean {
  const b = f.behavior;
  return (
    desktop(f) &&
    !clicksWithoutApproach(f) &&
    b.teleport_clicks >= INPUT.teleportClicks &&
    b.teleport_clicks * 2 >= b.approach_clicks
  );
}

/** Clicks on exact element centres, or returning to an earlier click's exact position. */
export function clicksExact(f: Features): 'centre' | 'repeat' | null {
  const b = f.behavior;
  if (!b.present) return null;
  if (b.centred_clicks >= INPUT.exactClicks) return 'centre';
  if (b.click_repeats >= INPUT.exactClicks) return 'repeat';
  return null;
}

/** Keys released within a few milliseconds (synthetic keydown/keyup pairs). */
export function inhumanKeyDwell(f: Features): boolean {
  const b = f.behavior;
  return desktop(f) && b.key_samples >= INPUT.minKeys && b.key_fast_dwell >= INPUT.fastDwellShare;
}

/**
 * Keys pressed at a fixed delay: the robust spread of the gaps between key-downs is tiny ('spread'),
 * or, on a desktop, the gaps and the holds both pile up on their floor ('floor'), which a busy machine's
 * delays do not hide. Virtual keyboards send keydown and keyup together (holds all alike), so the
 * floor is judged on desktops only.
 */
export function uniformKeyRhythm(f: Features): 'spread' | 'floor' | null {
  const b = f.behavior;
  if (b.key_rhythm_spread !== null && b.key_rhythm_spread < INPUT.keyRhythmSpread) return 'spread';
  const floor = b.key_floor;
  if (
    desktop(f) &&
    floor !== null &&
    floor.share >= INPUT.keyFloorShare &&
    Math.min(floor.gap_share, floor.hold_share) >= INPUT.keyFloorEachShare
  )
    return 'floor';
  return null;
}

/**
 * Keys pressed faster and released sooner than hands do (desktop): the median key-down gap and the
 * median hold both far under people's. Virtual keyboards commit keys at once, so desktops only.
 * One cause (a machine typing) is scored once: not where `key_rhythm_uniform` already fired, so
 * it only adds the fixed delays a busy machine hid from that test.
 */
export function superhumanKeySpeed(f: Features): boolean {
  const k = f.behavior.key_speed;
  return (
    desktop(f) &&
    k !== null &&
    uniformKeyRhythm(f) === null &&
    k.gap_median < INPUT.speedGapMedianMs &&
    k.hold_median < INPUT.speedHoldMedianMs
  );
}

/**
 * Mouse presses released within 15 ms of going down, most of them (two or more): a driver's
 * down/up pair. Touch and keyboard-activated clicks are never timed by the SDK; a desktop only.
 */
export function instantRelease(f: Features): boolean {
  const p = f.behavior.presses;
  return (
    desktop(f) &&
    p !== null &&
    p.count >= INPUT.minPresses &&
    p.quick >= INPUT.minPresses &&
    p.quick >= p.count * INPUT.quickPressShare
  );
}

/**
 * The window has no chrome (outer size = inner size) but its mouse events put the viewport tens
 * of pixels into it: headless Chromium driven over CDP (events offset by 87 px). In a real
 * browser, windowed, fullscreen or kiosk, the event offset equals the chrome size.
 */
export function pointerGeometryMismatch(f: Features): 'x' | 'y' | null {
  const g = f.behavior.pointer_frame;
  if (f.ua_mobile || g === null || g.samples < INPUT.frameMinSamples || g.spread > INPUT.frameSpreadPx)
    return null;
  if (Math.abs(g.chrome_y) <= INPUT.frameChromePx && Math.abs(g.dy) > INPUT.frameOffsetPx) return 'y';
  if (Math.abs(g.chrome_x) <= INPUT.frameChromePx && Math.abs(g.dx) > INPUT.frameOffsetPx) return 'x';
  return null;
}

/**
 * Mouse moves off the pixel grid a real mouse stays on, where the platform keeps it on one: the
 * moves off it, of the judged, or null when the platform is not judged. Windows places the cursor
 * on whole device pixels (any devicePixelRatio: client × ratio is whole); Chromium on Linux gives
 * whole pixels under X11 and 1/256 px steps under Wayland (`wl_fixed`), judged at ratio 1 only
 * (fractional Wayland scaling and page zoom move the grid). macOS, ChromeOS and phones are not
 * judged (fractional positions are normal there); nor non-Chromium browsers (Firefox rounds client
 * coordinates to CSS pixels), nor a user agent its own browser contradicts (a UA switcher on a Mac).
 */
export function offGridMoves(f: Features): { off: number; judged: number } | null {
  const g = f.behavior.pointer_grid;
  if (g === null || !desktop(f) || !f.ua_chromium || f.ua_inconsistencies.length > 0) return null;
  if (f.ua_os === 'windows') return { off: g.fractional, judged: g.judged };
  if (f.ua_os === 'linux' && Math.abs(g.dpr - 1) < 0.001) return { off: g.off_fixed, judged: g.judged };
  return null;
}

/** Most mouse moves landed between the pixels a real mouse on this platform lands on: CDP input. */
export function subpixelPointer(f: Features): boolean {
  const m = offGridMoves(f);
  return m !== null && m.judged >= INPUT.gridMinMoves && m.off >= m.judged * INPUT.gridOffShare;
}

/** Text fields filled by trusted `insertText` input with no key, paste or input-method event. */
export function textWithoutTyping(f: Features): boolean {
  const form = f.behavior.form;
  return form !== null && form.untyped > 0;
}

/**
 * How many input tells fired (for `behavior_bot_combined`; `scriptedInput` passes `soft: false`).
 * `click_instant_release` and `key_speed_superhuman` are soft: a Mac trackpad's tap-to-click is
 * instant too, and a fast typist on an unusual keyboard is not ruled out, so they add to the other
 * tells but never alone make input "scripted" (which turns open DevTools into the hard
 * `automation_cdp_scripted`).
 */
export function inputTells(f: Features, soft = true): number {
  return (
    (clicksWithoutApproach(f) ? 1 : 0) +
    (clicksTeleported(f) ? 1 : 0) +
    (clicksExact(f) !== null ? 1 : 0) +
    (inhumanKeyDwell(f) ? 1 : 0) +
    (uniformKeyRhythm(f) !== null ? 1 : 0) +
    (textWithoutTyping(f) ? 1 : 0) +
    (subpixelPointer(f) ? 1 : 0) +
    (soft && instantRelease(f) ? 1 : 0) +
    (soft && superhumanKeySpeed(f) ? 1 : 0)
  );
}

/** How the pointer reached the clicks, how keys were held and paced, and how text got into fields. */
export const input: SignalFamily = {
  name: 'input',
  rules: {
    click_without_movement: {
      score: 35,
      description:
        'Desktop clicks without pointer movement towards them (at most one move per click): clicks dispatched by a script.',
    },
    click_teleport: {
      score: 30,
      description:
        'Desktop clicks the pointer jumped to: at most one pointer sample in the second before each (people approach what they click).',
    },
    click_exact_position: {
      score: 30,
      description:
        "Clicks at their element's exact centre, or back at an earlier click's exact position: coordinates computed by a script.",
    },
    key_dwell_inhuman: {
      score: 35,
      description: 'Most keys were released within 10 ms of being pressed: synthetic key events.',
    },
    key_rhythm_uniform: {
      score: 25,
      description:
        'Keys pressed at a fixed delay: the spread of the gaps between key presses is tiny, or (desktop) many gaps and holds sit on their floor, as a fixed delay leaves them however busy the machine.',
    },
    click_instant_release: {
      score: 20,
      description:
        'Desktop mouse presses released within 15 ms of going down (two or more, at least two thirds of them): a driver pressing and releasing at once. People hold a button 50–150 ms; tap-to-click on a Mac trackpad can also be instant, so this is never enough alone.',
    },
    key_speed_superhuman: {
      score: 20,
      description:
        'Desktop keys pressed and released faster than hands type (20+ keys): median gap between key presses under 80 ms and median hold under 50 ms (people: about 240 ms, the fastest typists 100 ms; holds 70–130 ms). A fixed typing delay that a busy machine hid from key_rhythm_uniform (not scored where that fired). Alone it stays allow.',
    },
    text_without_typing: {
      score: 35,
      description:
        'Form fields got their text without a key, paste or input-method event (a driver inserting text, e.g. Playwright fill).',
    },
    pointer_subpixel: {
      score: 35,
      description:
        'Most mouse moves landed between device pixels on a platform whose mouse stays on them (Windows; Linux at pixel ratio 1): positions computed by a script and dispatched over DevTools (CDP), e.g. ghost-cursor.',
    },
  },
  evaluate(f) {
    const out: Signal[] = [];
    const b = f.behavior;
    if (clicksWithoutApproach(f)) {
      out.push(
        emit(this, 'click_without_movement', {
          description: `${b.clicks} clicks with ${b.mouse_moves} pointer moves on a desktop.`,
        }),
      );
    }
    if (clicksTeleported(f)) {
      out.push(
        emit(this, 'click_teleport', {
          description: `${b.teleport_clicks} of ${b.approach_clicks} clicks without a pointer approach (at most one sample in the second before).`,
        }),
      );
    }
    const exact = clicksExact(f);
    if (exact !== null) {
      out.push(
        emit(this, 'click_exact_position', {
          description:
            exact === 'centre'
              ? `${b.centred_clicks} clicks within 0.5 px of their element's centre.`
              : `${b.click_repeats} clicks back at an earlier click's exact position after the pointer moved away.`,
        }),
      );
    }
    if (inhumanKeyDwell(f)) {
      out.push(
        emit(this, 'key_dwell_inhuman', {
          description: `${Math.round(b.key_fast_dwell * 100)}% of ${b.key_samples} keys held under 10 ms (median ${b.key_dwell_median} ms).`,
        }),
      );
    }
    const rhythm = uniformKeyRhythm(f);
    if (rhythm === 'spread') {
      out.push(
        emit(this, 'key_rhythm_uniform', {
          description: `Key-press gaps vary by ${(b.key_rhythm_spread ?? 0).toFixed(3)} of their median (median absolute deviation; people 0.15–0.3).`,
        }),
      );
    } else if (rhythm === 'floor' && b.key_floor) {
      const k = b.key_floor;
      out.push(
        emit(this, 'key_rhythm_uniform', {
          description: `${Math.round(k.share * 100)}% of ${k.judged} key-press gaps and holds sit on their floor (gaps ${Math.round(k.gap_share * 100)}% at ${k.gap_floor.toFixed(1)} ms, holds ${Math.round(k.hold_share * 100)}% at ${k.hold_floor.toFixed(1)} ms, within max(3 ms, 4%); people 2.5–4%): a fixed delay on a busy machine.`,
        }),
      );
    }
    if (superhumanKeySpeed(f) && b.key_speed) {
      const k = b.key_speed;
      out.push(
        emit(this, 'key_speed_superhuman', {
          description: `Median gap between ${k.gaps} key presses ${k.gap_median.toFixed(1)} ms and median hold of ${k.holds} keys ${k.hold_median.toFixed(1)} ms (people: gaps 100 ms or more even for the fastest typists, holds 70–130 ms).`,
        }),
      );
    }
    if (instantRelease(f) && b.presses) {
      out.push(
        emit(this, 'click_instant_release', {
          description: `${b.presses.quick} of ${b.presses.count} mouse presses released under 15 ms (median hold ${b.presses.median_ms ?? '?'} ms; people 50–150 ms).`,
        }),
      );
    }
    if (textWithoutTyping(f) && b.form) {
      out.push(
        emit(this, 'text_without_typing', {
          description: `${b.form.untyped} of ${b.form.fields} filled fields got text without a key, paste or input-method event (${b.form.keys} keys, ${b.form.pastes} pastes in the form).`,
        }),
      );
    }
    const grid = offGridMoves(f);
    if (subpixelPointer(f) && grid && b.pointer_grid) {
      out.push(
        emit(this, 'pointer_subpixel', {
          description: `${grid.off} of ${grid.judged} mouse moves between device pixels (pixel ratio ${b.pointer_grid.dpr}, ${f.ua_os}).`,
        }),
      );
    }
    return out;
  },
};
