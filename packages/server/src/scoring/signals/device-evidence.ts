import type { Signal } from '../engine-types.ts';
import { emit, FORM_EVENTS, type SignalFamily } from './types.ts';

/** Fingerprint token and device evidence (SPEC §10: a bad token is evidence, not an error). */
export const deviceEvidence: SignalFamily = {
  name: 'device_evidence',
  rules: {
    no_device_evidence: { score: 15, description: 'No fingerprint token and no fingerprint evidence.' },
    token_invalid: {
      score: 35,
      description: 'The fingerprint token is malformed or its signature is wrong.',
    },
    token_expired: { score: 15, description: 'The fingerprint token is older than 10 minutes.' },
    token_site_mismatch: { score: 40, description: 'The fingerprint token was issued for another site.' },
    sdk_evidence_missing: {
      score: 45,
      description:
        'A browser call (/collect) from a browser user agent with no token, fingerprint, environment or behaviour: not sent by the SDK.',
    },
    token_missing: {
      score: 45,
      description:
        "A form event verified by the backend without a fingerprint token, where the site's backend sends tokens with events of this type.",
    },
    hosting_without_browser: {
      score: 25,
      description:
        'Verified by the backend with no sign of a browser (no token or fingerprint) from a hosting network, on a site whose pages run the SDK.',
    },
    token_device_mismatch: {
      score: 25,
      description:
        'The fingerprint or first-party visitor id sent with the token is not the one the token was issued for.',
    },
    device_visitor_conflict: {
      score: 20,
      description:
        "The SDK's first-party visitor id names another known device of the site than the fingerprint does (storage copied between browsers).",
    },
  },
  evaluate(f) {
    const out: Signal[] = [];
    if (f.token === 'invalid') out.push(emit(this, 'token_invalid'));
    else if (f.token === 'expired') out.push(emit(this, 'token_expired'));
    else if (f.token === 'site_mismatch') out.push(emit(this, 'token_site_mismatch'));
    if (f.token_device_mismatch) out.push(emit(this, 'token_device_mismatch'));
    if (f.device_visitor_conflict) out.push(emit(this, 'device_visitor_conflict'));
    if (f.token === 'absent' && !f.has_fingerprint) {
      out.push(emit(this, 'no_device_evidence'));
      if (f.surface === 'browser') {
        if (f.ua_browser && !f.has_environment && !f.has_behavior)
          out.push(emit(this, 'sdk_evidence_missing'));
      } else if (f.history.site_uses_sdk) {
        if (FORM_EVENTS.has(f.event_type) && f.history.event_type_uses_sdk)
          out.push(emit(this, 'token_missing'));
        if (f.ip.hosting) out.push(emit(this, 'hosting_without_browser'));
      }
    }
    return out;
  },
};
