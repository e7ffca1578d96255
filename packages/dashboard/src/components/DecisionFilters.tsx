import type { FormEvent } from 'react';
import { ACTIONS, CLASSIFICATIONS, EVENT_TYPES } from '../api/types.ts';
import type { Filters } from '../lib/decision-filters.ts';
import { Field } from './Field.tsx';
import { Select } from './Select.tsx';

const LABELS = ['fraud', 'legit', 'none'] as const;
const MATCHES = ['live', 'shadow'] as const;

/** One field of the filter panel: a select when it has `options`, else an input of `type`. */
interface FilterField {
  id: string;
  label: string;
  key: Exclude<keyof Filters, 'q'>;
  options?: readonly string[];
  type?: string;
}

/** The panel's fields, in the order they are shown. */
const FIELDS: readonly FilterField[] = [
  { id: 'f-event', label: 'Event type', key: 'eventType', options: EVENT_TYPES },
  { id: 'f-class', label: 'Classification', key: 'classification', options: CLASSIFICATIONS },
  { id: 'f-action', label: 'Action', key: 'action', options: ACTIONS },
  { id: 'f-from', label: 'From', key: 'from', type: 'datetime-local' },
  { id: 'f-to', label: 'To', key: 'to', type: 'datetime-local' },
  { id: 'f-account', label: 'Account', key: 'accountId' },
  { id: 'f-ip', label: 'IP address', key: 'ip' },
  { id: 'f-device', label: 'Device id', key: 'deviceId' },
  { id: 'f-network', label: 'Network (/24, /64)', key: 'ipPrefix' },
  { id: 'f-email', label: 'E-mail', key: 'email' },
  { id: 'f-domain', label: 'E-mail domain', key: 'emailDomain' },
  { id: 'f-payment', label: 'Payment hash', key: 'paymentHash' },
  { id: 'f-promo', label: 'Promo code', key: 'promoCode' },
  { id: 'f-cluster', label: 'Cluster', key: 'clusterId' },
  { id: 'f-signal', label: 'Signal or custom:rule', key: 'signal' },
  { id: 'f-match', label: 'Rule match', key: 'match', options: MATCHES },
  { id: 'f-country', label: 'Country (ISO)', key: 'country' },
  { id: 'f-asn', label: 'ASN', key: 'asn' },
  { id: 'f-label', label: 'Label', key: 'label', options: LABELS },
  { id: 'f-min', label: 'Min score', key: 'minScore', type: 'number' },
  { id: 'f-max', label: 'Max score', key: 'maxScore', type: 'number' },
];

interface DraftProps {
  draft: Filters;
  /** Changes one field of the draft (applied only on submit). */
  onChange: (key: keyof Filters, value: string) => void;
  onApply: (event: FormEvent) => void;
}

/** The free-text search over the identity fields. */
export function DecisionSearch({ draft, onChange, onApply }: DraftProps) {
  return (
    <form className="decision-search" onSubmit={onApply} aria-label="Search decisions">
      <input
        id="f-q"
        type="search"
        aria-label="Search"
        placeholder="Account, e-mail, device, IP, card, promo code, cluster or decision id"
        value={draft.q}
        onChange={(e) => onChange('q', e.target.value)}
      />
      <button type="submit" className="button primary small">
        Search
      </button>
    </form>
  );
}

/** The filter panel, folded until asked for: the list is what an analyst came for. */
export function DecisionFilterPanel({
  draft,
  active,
  onChange,
  onApply,
  onReset,
}: DraftProps & { active: number; onReset: () => void }) {
  return (
    <details className="filters-panel">
      <summary>Filters{active > 0 ? ` (${active} set)` : ''}</summary>
      <form className="filters" onSubmit={onApply} aria-label="Filter decisions">
        {FIELDS.map(({ id, label, key, options, type = 'text' }) => (
          <Field key={id} id={id} label={label}>
            {options ? (
              <Select
                id={id}
                value={draft[key]}
                options={options}
                none="Any"
                onChange={(v) => onChange(key, v)}
              />
            ) : (
              <input id={id} type={type} value={draft[key]} onChange={(e) => onChange(key, e.target.value)} />
            )}
          </Field>
        ))}
        <div className="filter-buttons">
          <button type="submit" className="button primary">
            Apply
          </button>
          <button type="button" className="button secondary" onClick={onReset}>
            Reset
          </button>
        </div>
      </form>
    </details>
  );
}
