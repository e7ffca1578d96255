import type { ScoringContext } from '@warden/protocol';
import type { Device } from './devices.ts';
import { type FormPlan, humanBrowse, humanForm, recordField } from './human.ts';
import { BrowserPage } from './page.ts';
import type { Person } from './people.ts';
import type { Rng } from './rng.ts';
import type { Trace } from './traces.ts';
import type { Step } from './types.ts';

/**
 * A person's visit: landing page (page_view), sign-up or login, maybe a checkout and a promo
 * code. Every page load runs the SDK (register + collect); every form is also verified by the
 * shop's backend with the trusted context (login outcome, payment hash, amount).
 */
export interface VisitOptions {
  ip: string;
  /** Device for this visit (defaults to the person's; a canvas randomiser gives a new one per page). */
  deviceFor?: (page: number) => Device;
  auth: 'signup' | 'login' | 'none';
  /** Login: the first password attempt is a typo. */
  typo?: boolean;
  /** Password manager: fields filled without typing, quick submit. */
  autofill?: boolean;
  checkout?: boolean;
  promo?: string;
  /** Keyboard-only navigation (no pointer). */
  keyboardOnly?: boolean;
  /** Replaces the form filler (e.g. a password manager that fills and submits by itself). */
  filler?: (page: BrowserPage, rng: Rng, plan: FormPlan) => number;
}

export function humanVisit(
  person: Person,
  at: number,
  rng: Rng,
  traces: readonly Trace[],
  o: VisitOptions,
): Step[] {
  const steps: Step[] = [];
  let pageNo = 0;
  let clock = at;
  const open = (gapMs: number) => {
    clock += gapMs;
    const device = o.deviceFor ? o.deviceFor(pageNo) : person.device;
    pageNo++;
    return new BrowserPage(device, o.ip, clock, rng);
  };
  const fill = (page: BrowserPage, plan: FormPlan) => {
    if (o.filler) return o.filler(page, rng, plan);
    if (o.keyboardOnly) return keyboardOnly(page, rng, plan);
    return humanForm(page, rng, traces, plan);
  };
  const form = (page: BrowserPage, plan: FormPlan, ctx: ScoringContext, serverCtx: ScoringContext) => {
    const t = fill(page, plan);
    steps.push(page.register(t), page.collect(t, ctx), page.verify(t, serverCtx));
    clock = page.loadAt + t;
  };
  const base = { account_id: person.accountId, email: person.email };

  const landing = open(0);
  const tv = humanBrowse(landing, rng, traces);
  steps.push(
    landing.register(tv),
    landing.collect(tv, {
      event_type: 'page_view',
      account_id: person.returning ? person.accountId : 'anonymous',
    }),
  );
  clock = landing.loadAt + tv;

  if (o.auth === 'signup') {
    const page = open(rng.logNormal(12_000, 0.7));
    const plan = o.autofill
      ? { typing: [0, 0, rng.int(9, 14)], pasteFields: 1, autofilled: true }
      : { typing: [person.email.length, rng.int(9, 14), rng.int(9, 14)] };
    form(page, plan, { event_type: 'signup', ...base }, { event_type: 'signup', ...base });
  } else if (o.auth === 'login') {
    const pw = rng.int(8, 14);
    const autofilled = o.autofill === true;
    const plan: FormPlan = autofilled
      ? { typing: [0, 0], autofilled: true }
      : { typing: [person.email.length, pw] };
    if (o.typo) {
      const page = open(rng.logNormal(8_000, 0.6));
      form(
        page,
        plan,
        { event_type: 'login', ...base },
        { event_type: 'login', ...base, login_succeeded: false },
      );
      const retry = open(rng.logNormal(2_500, 0.4));
      form(
        retry,
        { typing: [0, pw + 1] },
        { event_type: 'login', ...base },
        { event_type: 'login', ...base, login_succeeded: true },
      );
    } else {
      const page = open(rng.logNormal(8_000, 0.6));
      form(
        page,
        plan,
        { event_type: 'login', ...base },
        { event_type: 'login', ...base, login_succeeded: true },
      );
    }
  }

  if (o.promo) {
    const page = open(rng.logNormal(20_000, 0.8));
    form(
      page,
      { typing: [o.promo.length] },
      { event_type: 'promo_claim', ...base, promo_code: o.promo },
      { event_type: 'promo_claim', ...base, promo_code: o.promo },
    );
  }

  if (o.checkout) {
    const page = open(rng.logNormal(90_000, 0.9));
    const amount = Math.round(rng.logNormal(48, 0.7) * 100) / 100;
    const card = rng.pick(person.cards);
    // Card fields live in the payment provider's iframe: the page sees the clicks, not the keys.
    form(
      page,
      { typing: [0, 0, 0] },
      { event_type: 'checkout', ...base, order_amount: amount },
      { event_type: 'checkout', ...base, order_amount: amount, payment_hash: card },
    );
  }
  return steps;
}

/** Tab and type: no pointer at all (keyboard users, screen readers). */
function keyboardOnly(page: BrowserPage, rng: Rng, plan: FormPlan): number {
  let t = rng.logNormal(2000, 0.4);
  for (let i = 0; i < plan.typing.length; i++) recordField(page, plan, i);
  for (const chars of plan.typing) {
    page.rec.key(t, rng.logNormal(85, 0.3));
    t += rng.logNormal(400, 0.4);
    for (let i = 0; i < chars; i++) {
      page.rec.key(t, Math.min(400, rng.logNormal(95, 0.3)));
      t += rng.logNormal(190, 0.5);
    }
  }
  page.rec.key(t, rng.logNormal(90, 0.3));
  return t + 20;
}
