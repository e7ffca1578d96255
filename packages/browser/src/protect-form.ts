import type { CollectContext, WardenClient } from './client.ts';
import type { Decision, EventType } from './types.ts';

export interface ProtectFormOptions {
  event_type: EventType;
  /** The account the form acts on, read at submit time. */
  account_id: () => string;
  /** More context read at submit time (email, promo_code, order_amount, …). */
  context?: () => Partial<CollectContext>;
  /** Solve a challenge the decision asks for, then score again with the proof (default true). */
  solveChallenges?: boolean;
  /** Called with the decision; return false to stop the submission. */
  onDecision?: (
    decision: Decision,
    form: HTMLFormElement,
  ) => boolean | undefined | Promise<boolean | undefined>;
  onError?: (error: unknown, form: HTMLFormElement) => void;
}

function setHidden(form: HTMLFormElement, name: string, value: string): void {
  let input = form.querySelector<HTMLInputElement>(`input[type=hidden][name="${name}"]`);
  if (!input) {
    input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    form.appendChild(input);
  }
  input.value = value;
}

/**
 * Scores a form on submit and adds hidden inputs `warden_token` (fingerprint token, for the
 * server's /verify call), `warden_request_id` and `warden_action`. The browser's answer is
 * advisory: the application's server must enforce the action itself.
 */
export function protectForm(
  client: WardenClient,
  form: HTMLFormElement,
  options: ProtectFormOptions,
): () => void {
  let passing = false;
  const onSubmit = async (event: SubmitEvent) => {
    if (passing) {
      passing = false;
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    try {
      const context = {
        ...options.context?.(),
        event_type: options.event_type,
        account_id: options.account_id(),
      };
      let decision = await client.collect(context);
      if (decision.action === 'challenge' && decision.challenge && options.solveChallenges !== false) {
        await client.solveChallenge(decision.challenge);
        decision = await client.collect(context);
      }
      const fp = await client.fingerprint().catch(() => undefined);
      if (fp) setHidden(form, 'warden_token', fp.token);
      setHidden(form, 'warden_request_id', decision.request_id);
      setHidden(form, 'warden_action', decision.action);
      if ((await options.onDecision?.(decision, form)) === false) return;
      passing = true;
      if (typeof form.requestSubmit === 'function') form.requestSubmit(event.submitter as HTMLElement | null);
      else form.submit();
    } catch (err) {
      options.onError?.(err, form);
    }
  };
  const listener = (e: Event) => void onSubmit(e as SubmitEvent);
  form.addEventListener('submit', listener, true);
  return () => form.removeEventListener('submit', listener, true);
}
