/** The rule editor's form values and the API's rule fields. */
import type { RuleDraft } from '../api/types.ts';

export const BLANK: RuleDraft = {
  name: '',
  description: '',
  enabled: true,
  mode: 'shadow',
  eventTypes: [],
  expression: '',
  score: 20,
  action: null,
  priority: 0,
};

/** The form's values as text (score may be blank = no score). */
export interface FormValues extends Omit<RuleDraft, 'score' | 'priority'> {
  score: string;
  priority: string;
}

export function toForm(r: RuleDraft): FormValues {
  return {
    name: r.name,
    description: r.description,
    enabled: r.enabled,
    mode: r.mode,
    eventTypes: r.eventTypes,
    expression: r.expression,
    action: r.action,
    score: r.score === null ? '' : String(r.score),
    priority: String(r.priority),
  };
}

/** Exactly the rule fields the API takes (it refuses unknown ones such as id). */
export function toDraft(f: FormValues): RuleDraft {
  return {
    name: f.name.trim(),
    description: f.description,
    enabled: f.enabled,
    mode: f.mode,
    eventTypes: f.eventTypes,
    expression: f.expression,
    score: f.score.trim() === '' ? null : Number(f.score),
    action: f.action,
    priority: f.priority.trim() === '' ? 0 : Number(f.priority),
  };
}
