import { type LoadOptions, WardenClient } from './client.ts';
import { type ProtectFormOptions, protectForm as protect } from './protect-form.ts';

export type { CollectContext, LoadOptions } from './client.ts';
export { SDK_VERSION } from './collect/index.ts';
export { WardenError } from './http.ts';
export type { ProtectFormOptions } from './protect-form.ts';
export type * from './types.ts';

export interface Warden extends WardenClient {
  /** Scores the form on submit and attaches the token and decision as hidden inputs. */
  protectForm(form: HTMLFormElement, options: ProtectFormOptions): () => void;
}

class WardenInstance extends WardenClient implements Warden {
  protectForm(form: HTMLFormElement, options: ProtectFormOptions): () => void {
    return protect(this, form, options);
  }
}

/** Starts the SDK: behaviour recording, evidence collection and the worker pool. */
export function load(options: LoadOptions): Warden {
  return new WardenInstance(options);
}
