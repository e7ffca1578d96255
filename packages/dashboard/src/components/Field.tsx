import type { ReactNode } from 'react';

/** A labelled form field with an optional hint and inline errors (role=alert). */
export function Field({
  id,
  label,
  hint,
  errors,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  errors?: readonly string[] | undefined;
  children: ReactNode;
}) {
  return (
    <div className={`field${errors && errors.length > 0 ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {errors && errors.length > 0 ? (
        <div className="field-errors" id={`${id}-error`} role="alert">
          {errors.map((e) => (
            <p key={e}>{e}</p>
          ))}
        </div>
      ) : null}
    </div>
  );
}
