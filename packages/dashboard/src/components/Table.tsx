import type { ReactNode } from 'react';

/** A column heading; numeric columns are right-aligned. */
export type Column = string | { label: string; numeric: true };

/**
 * A data table with its column headings. `stacked` turns rows into cards on narrow screens (cells
 * carry `data-label`); `rowActions` adds a last, visually hidden "Actions" column for row buttons.
 */
export function Table({
  columns,
  stacked = false,
  rowActions = false,
  className,
  testId,
  children,
}: {
  columns: readonly Column[];
  stacked?: boolean;
  rowActions?: boolean;
  className?: string;
  testId?: string;
  /** The rows. */
  children: ReactNode;
}) {
  const classes = ['table', stacked ? 'table-stack' : null, className ?? null].filter(Boolean).join(' ');
  return (
    <div className="table-wrap">
      <table className={classes} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((column) =>
              typeof column === 'string' ? (
                <th key={column} scope="col">
                  {column}
                </th>
              ) : (
                <th key={column.label} scope="col" className="num">
                  {column.label}
                </th>
              ),
            )}
            {rowActions ? (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
