import type { ReactNode } from 'react';
import { Dialog } from './Dialog.tsx';
import { ErrorMessage } from './Status.tsx';

/** A dialog that asks before a destructive request (delete, remove, rotate): confirm or cancel. */
export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  busyLabel = confirmLabel,
  busy,
  error,
  errorTitle,
  onConfirm,
  onCancel,
  children,
}: {
  open: boolean;
  title: string;
  confirmLabel: string;
  /** Shown on the confirm button while the request runs. */
  busyLabel?: string;
  busy: boolean;
  error: unknown;
  errorTitle?: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** The question, naming what is at stake. */
  children: ReactNode;
}) {
  return (
    <Dialog open={open} title={title} onClose={onCancel}>
      <p>{children}</p>
      <ErrorMessage error={error} {...(errorTitle ? { title: errorTitle } : {})} />
      <div className="form-actions">
        <button type="button" className="button danger" disabled={busy} onClick={onConfirm}>
          {busy ? busyLabel : confirmLabel}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
