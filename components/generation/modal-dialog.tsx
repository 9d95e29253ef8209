"use client";

import { useEffect, useRef, type ReactNode, type RefObject, type SyntheticEvent } from "react";

/**
 * A native modal `<dialog>`: the browser traps focus, makes the page behind inert, closes on Esc
 * and returns focus to the opener. `onCancel` may veto an Esc (e.g. to leave a note field first).
 */
export function ModalDialog({
  open,
  onClose,
  onCancel,
  labelledBy,
  initialFocus,
  className,
  children,
  onKeyDown,
}: {
  open: boolean;
  onClose: () => void;
  onCancel?: (event: SyntheticEvent<HTMLDialogElement>) => void;
  labelledBy: string;
  /** What gets focus on opening, instead of the first focusable control. */
  initialFocus?: RefObject<HTMLElement | null>;
  className?: string;
  children: ReactNode;
  onKeyDown?: (event: React.KeyboardEvent<HTMLDialogElement>) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      initialFocus?.current?.focus();
    } else if (!open && dialog.open) dialog.close();
  }, [open, initialFocus]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={labelledBy}
      onClose={onClose}
      onCancel={onCancel}
      onKeyDown={onKeyDown}
      className={`m-auto rounded-lg border border-border bg-bg p-5 text-fg shadow-xl backdrop:bg-black/40 ${className ?? "w-full max-w-md"}`}
    >
      {open ? children : null}
    </dialog>
  );
}
