import type { ReactNode } from "react";

interface ConfirmDisclosureProps {
  /** The toggle's accessible name, such as "Delete address: 12 Baker Street". */
  label: string;
  /** What the toggle shows (a word or an icon). */
  toggle: ReactNode;
  /** The question, such as "Delete this address?". */
  question: string;
  /** The form whose button does it. */
  children: ReactNode;
  className?: string;
}

/**
 * Asks before something that cannot be undone: a <details>
 * whose summary opens the question and the confirming form. Plain HTML, so it
 * asks with and without JavaScript and adds nothing to the client bundle.
 */
export function ConfirmDisclosure({ label, toggle, question, children, className }: ConfirmDisclosureProps) {
  return (
    <details className={`confirm-disclosure${className ? ` ${className}` : ""}`}>
      <summary className="confirm-disclosure__toggle" aria-label={label}>
        {toggle}
      </summary>
      <div className="confirm-disclosure__panel">
        <p className="confirm-disclosure__question">{question}</p>
        {children}
      </div>
    </details>
  );
}
