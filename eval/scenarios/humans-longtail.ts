import { type Device, hash28 } from '../lib/devices.ts';
import { datacenterIp } from '../lib/network.ts';
import { makePerson, type Person } from '../lib/people.ts';
import { populationSteps } from '../lib/population.ts';
import type { Rng } from '../lib/rng.ts';
import { type Scenario, sized } from '../lib/types.ts';

/**
 * Real people whose browsers or networks look odd — the usual sources of false positives:
 * canvas-blocking privacy extensions (patched natives, a new canvas hash every page), developer
 * tools left open (CDP side effect), user-agent switchers (the worker disagrees), Brave's
 * per-session farbling, VPN exits and office NAT shared by many accounts, password managers that
 * fill and submit in under a second, badly set clocks, a family sharing one laptop, and
 * keyboard-only users.
 */
type Quirk =
  | 'privacy-ext'
  | 'devtools'
  | 'ua-switcher'
  | 'brave'
  | 'vpn'
  | 'office'
  | 'auto-submit'
  | 'clock'
  | 'family'
  | 'keyboard';

const QUIRKS: ReadonlyArray<readonly [Quirk, number]> = [
  ['privacy-ext', 12],
  ['devtools', 8],
  ['ua-switcher', 6],
  ['brave', 10],
  ['vpn', 14],
  ['office', 12],
  ['auto-submit', 12],
  ['clock', 6],
  ['family', 12],
  ['keyboard', 8],
];

function withQuirk(rng: Rng, p: Person, quirk: Quirk): Person {
  const d: Device = { ...p.device, tells: { ...p.device.tells } };
  if (quirk === 'privacy-ext')
    d.tells.tampered_functions = [
      'HTMLCanvasElement.toDataURL',
      'HTMLCanvasElement.getContext',
      'CanvasRenderingContext2D.getImageData',
    ];
  if (quirk === 'devtools') d.tells.cdp = true;
  if (quirk === 'ua-switcher') {
    const spoofed =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15';
    d.userAgent = spoofed;
    d.fingerprint = { ...d.fingerprint, user_agent: spoofed };
  }
  if (quirk === 'clock') d.clockSkewMs = (rng.chance(0.5) ? -1 : 1) * rng.uniform(7, 180) * 60_000;
  return { ...p, device: d };
}

export const humansLongTail: Scenario = {
  family: { id: 'humans_longtail', title: 'Humans, long tail', label: 'human', section: 'headline' },
  build(env) {
    const rng = env.rng.fork('people');
    const vpnExits = Array.from({ length: 3 }, () => datacenterIp(rng));
    const officeIp = `${rng.pick(['62.214', '80.152', '193.30'])}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
    const quirks = new Map<string, Quirk>();
    const people: Person[] = [];
    while (people.length < sized(env, 50)) {
      const quirk = rng.weighted(QUIRKS);
      const base = withQuirk(rng, makePerson(rng, rng.chance(0.8) ? 'desktop' : 'mobile', 'hl'), quirk);
      const members = quirk === 'family' ? 3 : 1;
      for (let i = 0; i < members; i++) {
        const p: Person =
          i === 0
            ? base
            : {
                ...makePerson(rng, 'desktop', 'hl'),
                device: base.device,
                homeIp: base.homeIp,
                locale: base.locale,
              };
        if (quirk === 'vpn') p.homeIp = rng.pick(vpnExits);
        if (quirk === 'office') p.homeIp = officeIp;
        quirks.set(p.accountId, quirk);
        people.push(p);
      }
    }
    return populationSteps(env, people, (person, r, o) => {
      const quirk = quirks.get(person.accountId);
      if (quirk === 'privacy-ext' || quirk === 'brave') {
        const session = r.hex(8);
        return {
          ...o,
          deviceFor: (page) => ({
            ...person.device,
            fingerprint: {
              ...person.device.fingerprint,
              canvas_hash: hash28(`farble|${session}|${quirk === 'privacy-ext' ? page : 0}`),
              audio_hash: hash28(`farble-audio|${session}`),
            },
          }),
        };
      }
      if (quirk === 'vpn' || quirk === 'office') return { ...o, ip: person.homeIp };
      if (quirk === 'keyboard') return { ...o, keyboardOnly: true };
      if (quirk === 'auto-submit' && o.auth === 'login') {
        return {
          ...o,
          autofill: true,
          filler: (page, _rng, plan) => {
            page.rec.pastes = 0;
            // The manager fills every field (untrusted input events: the SDK counts them autofilled).
            for (const _ of plan.typing) page.rec.field('autofilled', 0);
            return r.uniform(700, 1400);
          },
        };
      }
      return o;
    });
  },
};
