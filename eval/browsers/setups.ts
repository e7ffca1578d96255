import type { DesktopStyle } from './desktop-input.ts';
import type { Kit, KitInput } from './kits.ts';

/** One adversary (or person) of the benchmark. */
export type Setup =
  | { id: string; label: string; kind: 'kit'; kit: Kit; headless: boolean; input: KitInput; person: false }
  | {
      id: string;
      label: string;
      kind: 'desktop';
      style: DesktopStyle;
      /** For `replay_bot`: which recorded bot (a folder of fixtures/mouse-dev, or an absolute path). */
      botTraces?: string;
      /** For `human`: whose recordings (as `botTraces`; default circles_human_pc1). */
      humanTraces?: string;
      /**
       * For `aiming`: the mouse-tracking study's `raw_data.csv.gz` (`--aiming <path>`; GPL-3, read
       * from there, never copied); without it the setup is skipped, saying why (`skipped`).
       */
      aimingData?: string;
      /** Why the setup cannot run (printed, never silent). */
      skipped?: string;
      person: boolean;
    };

const KITS: Array<[Kit, string]> = [
  ['playwright', 'Playwright'],
  ['stealth', 'playwright-extra stealth'],
  ['patchright', 'patchright-core'],
  ['rebrowser', 'rebrowser-playwright-core'],
];

export const SETUPS: Setup[] = [
  ...KITS.flatMap(([kit, name]) =>
    [true, false].flatMap((headless) =>
      (['fill', 'ghost'] as const).map(
        (input): Setup => ({
          id: `${kit}-${headless ? 'headless' : 'headful'}-${input}`,
          label: `${name}, ${headless ? 'headless' : 'headful (Xvfb)'}, ${input === 'fill' ? 'fill' : 'ghost-cursor'}`,
          kind: 'kit',
          kit,
          headless,
          input,
          person: false,
        }),
      ),
    ),
  ),
  {
    id: 'xdotool-straight',
    label: 'plain chromium, xdotool straight lines',
    kind: 'desktop',
    style: 'straight',
    person: false,
  },
  {
    id: 'xdotool-ghost',
    label: 'plain chromium, xdotool ghost-cursor paths',
    kind: 'desktop',
    style: 'ghost',
    person: false,
  },
  {
    id: 'xdotool-teleport',
    label: 'plain chromium, xdotool teleport + click',
    kind: 'desktop',
    style: 'teleport',
    person: false,
  },
  {
    id: 'xdotool-replay-pynput',
    label: 'plain chromium, replayed bot (pynput)',
    kind: 'desktop',
    style: 'replay_bot',
    botTraces: 'circles_bot_pynput',
    person: false,
  },
  {
    id: 'xdotool-replay-pyhm',
    label: 'plain chromium, replayed bot (pyHM)',
    kind: 'desktop',
    style: 'replay_bot',
    botTraces: 'circles_bot_pyhm',
    person: false,
  },
  {
    id: 'person-pc1',
    label: 'person: replayed circles_human_pc1',
    kind: 'desktop',
    style: 'human',
    person: true,
  },
  {
    id: 'person-aiming',
    label: 'person: held-out people aiming at targets (KH2017 reaches carried onto the form, Fitts timing)',
    kind: 'desktop',
    style: 'aiming',
    person: true,
  },
  {
    id: 'xdotool-windmouse',
    label: 'plain chromium, xdotool WindMouse paths (npm windmouse)',
    kind: 'desktop',
    style: 'windmouse',
    person: false,
  },
  {
    id: 'xdotool-humanize',
    label: 'plain chromium, xdotool @extra/humanize paths, uniform step timing',
    kind: 'desktop',
    style: 'humanize',
    person: false,
  },
  {
    id: 'xdotool-nmm',
    label: 'plain chromium, xdotool NaturalMouseMotion-style paths',
    kind: 'desktop',
    style: 'nmm',
    person: false,
  },
];

/**
 * The setups with the aiming data given (`--aiming <path-to>/mousetrap-kh2017/raw_data.csv.gz`), or
 * without it each `aiming` setup marked skipped with the reason.
 */
export function withAimingData(setups: readonly Setup[], file: string | undefined): Setup[] {
  return setups.map((s) =>
    s.kind === 'desktop' && s.style === 'aiming'
      ? file
        ? { ...s, aimingData: file }
        : {
            ...s,
            skipped:
              'no aiming data: pass --aiming <path-to>/mousetrap-kh2017/raw_data.csv.gz (the KH2017 mouse-tracking study, GPL-3, read from where it lies)',
          }
      : s,
  );
}

/** Setups whose id matches one of `patterns` (substring or `*` glob); all when there is none. */
export function selectSetups(patterns: readonly string[], from: readonly Setup[] = SETUPS): Setup[] {
  if (patterns.length === 0) return [...from];
  const res = patterns.map((p) => new RegExp(`^${p.split('*').map(escapeRegExp).join('.*')}$`));
  return from.filter((s) => patterns.some((p, i) => s.id.includes(p) || res[i]!.test(s.id)));
}

const escapeRegExp = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
