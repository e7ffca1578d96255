/**
 * A <select> over fixed values (roles, actions, kinds…), shown with spaces for underscores.
 * `none` adds a first, empty choice with that label (e.g. "Any"). Label it with a <Field> (id) or
 * with `ariaLabel`.
 */
export function Select({
  id,
  ariaLabel,
  value,
  options,
  none,
  disabled,
  onChange,
}: {
  id?: string;
  ariaLabel?: string;
  value: string;
  options: readonly string[];
  none?: string;
  disabled?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <select
      id={id}
      aria-label={ariaLabel}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    >
      {none !== undefined ? <option value="">{none}</option> : null}
      {options.map((o) => (
        <option key={o} value={o}>
          {o.replace(/_/g, ' ')}
        </option>
      ))}
    </select>
  );
}
