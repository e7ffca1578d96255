import type { Device } from './devices.ts';
import { humanDesktop } from './devices.ts';
import { humanMobile } from './devices-mobile.ts';
import { type Locale, pickLocale } from './locales.ts';
import { residentialIp } from './network.ts';
import type { Rng } from './rng.ts';
import { DAY, HOUR } from './types.ts';

/** A customer: one account, one main device, a home address, one card (sometimes two). */
export interface Person {
  accountId: string;
  email: string;
  locale: Locale;
  device: Device;
  homeIp: string;
  cards: string[];
  /** Existing customer (logs in) or signing up during the replay. */
  returning: boolean;
}

const FIRST = [
  'anna',
  'ben',
  'carla',
  'dmitri',
  'emma',
  'felix',
  'grace',
  'hugo',
  'ines',
  'jon',
  'kate',
  'liam',
  'maria',
  'noah',
  'olga',
  'paul',
  'rosa',
  'sam',
  'tara',
  'umar',
  'vera',
  'will',
  'yara',
  'zoe',
];
const LAST = [
  'smith',
  'mueller',
  'garcia',
  'dubois',
  'jansen',
  'brown',
  'lopez',
  'wilson',
  'novak',
  'rossi',
  'khan',
  'lee',
  'martin',
  'bauer',
  'silva',
];
const DOMAINS: ReadonlyArray<readonly [string, number]> = [
  ['gmail.com', 45],
  ['outlook.com', 12],
  ['yahoo.com', 8],
  ['icloud.com', 10],
  ['hotmail.com', 6],
  ['gmx.de', 4],
  ['web.de', 3],
  ['orange.fr', 3],
  ['proton.me', 3],
  ['comcast.net', 3],
];

export function personEmail(rng: Rng): string {
  const f = rng.pick(FIRST);
  const l = rng.pick(LAST);
  const local = rng.weighted([
    [`${f}.${l}`, 4],
    [`${f}${l}${rng.int(1, 99)}`, 3],
    [`${f[0]}${l}`, 2],
    [`${f}_${l}${rng.int(70, 2005)}`, 1],
  ] as const);
  return `${local}@${rng.weighted(DOMAINS)}`;
}

export function makePerson(rng: Rng, kind: 'desktop' | 'mobile', prefix: string): Person {
  const locale = pickLocale(rng);
  const device = kind === 'desktop' ? humanDesktop(rng, locale) : humanMobile(rng, locale);
  return {
    accountId: `${prefix}_${rng.hex(10)}`,
    email: personEmail(rng),
    locale,
    device,
    homeIp: residentialIp(rng, locale.region),
    cards: rng.chance(0.12) ? [`pm_${rng.hex(24)}`, `pm_${rng.hex(24)}`] : [`pm_${rng.hex(24)}`],
    returning: rng.chance(0.65),
  };
}

/** Local-time activity by hour (evening peak, quiet nights). */
const DIURNAL = [2, 1, 1, 1, 1, 2, 3, 5, 6, 7, 7, 8, 9, 8, 7, 7, 8, 9, 11, 13, 13, 11, 7, 4];

/** A visit time in [t0, t0 + days): a uniform day, an hour by the diurnal curve, in the person's zone. */
export function visitTime(rng: Rng, locale: Locale, t0: number, days: number): number {
  const day = rng.int(0, Math.max(0, days - 1));
  const hour = rng.weighted(DIURNAL.map((w, h) => [h, w] as const));
  const local = t0 + day * DAY + hour * HOUR + rng.uniform(0, HOUR);
  return Math.min(t0 + days * DAY - HOUR, Math.max(t0, local + locale.offset * 60_000));
}
