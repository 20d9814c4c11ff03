import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A modal dialog on the platform's own <dialog>, opened with showModal(): the page behind it is
 * inert, so Tab stays inside it; Escape and a click on the backdrop close it; focus goes to its
 * `autoFocus` control (else its first) and, once it closes, back to what had it before.
 * `children` hold its actions.
 */
export function Dialog({
  labelledBy,
  onClose,
  children,
}: {
  labelledBy: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // jsdom has no showModal: the dialog is shown open there, without the inert page.
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
    return () => {
      if (dialog.open && typeof dialog.close === 'function') dialog.close();
      opener?.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={labelledBy}
      // Escape: closed by the app, so that its state says so.
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // The backdrop is the dialog's own box outside its content.
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="dialog-body">{children}</div>
    </dialog>
  );
}
