import type { ReactNode } from 'react';
import { describeError } from '../api/errors.ts';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="status status-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

/** The API error's message and code, as the server said them. */
export function ErrorMessage({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const { message, code } = describeError(error);
  return (
    <div className="status status-error" role="alert">
      {title ? <strong>{title}: </strong> : null}
      <span className="error-text">{message}</span> <code className="error-code">{code}</code>
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="status status-empty">{children}</p>;
}

/** A feature the workspace's plan does not include (402 plan_required). */
export function PlanRequired({ plan, feature }: { plan: string; feature: string }) {
  return (
    <div className="status status-plan" role="note">
      <strong>Needs {plan}.</strong> {feature} is not part of this workspace's plan. The operator can change
      the plan with <code>warden workspace plan &lt;id&gt; pro</code>.
    </div>
  );
}

/** Validation errors listed by request path (e.g. those with no form field to sit next to). */
export function ValidationSummary({
  errors,
}: {
  errors: ReadonlyArray<readonly [string, readonly string[]]>;
}) {
  if (errors.length === 0) return null;
  return (
    <div className="status status-error" role="alert">
      {errors.map(([path, messages]) => (
        <p key={path}>
          <code>{path}</code>: {messages.join(' ')}
        </p>
      ))}
    </div>
  );
}

/** A short confirmation next to a form's buttons ("Saved."), announced to screen readers. */
export function SavedNotice({ children }: { children: ReactNode }) {
  return (
    <span className="saved" role="status">
      {children}
    </span>
  );
}
