import type { ReactNode } from 'react';

interface SectionToggleProps {
  readonly open: boolean;
  /** The id of the part it opens and closes. */
  readonly controls: string;
  readonly id?: string;
  readonly children: ReactNode;
  onToggle(): void;
}

/**
 * The header of a section that opens ('Global Settings', a speaker's 'Settings'): its name, and a
 * chevron that points down while it is open. Screen readers hear it as a button that expands.
 */
export function SectionToggle({ open, controls, id, children, onToggle }: SectionToggleProps) {
  return (
    <button
      id={id}
      type="button"
      className="section-toggle"
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
    >
      <svg className="chevron" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
        <path d="M6 3l5 5-5 5" fill="none" stroke="currentColor" strokeWidth="2" />
      </svg>
      {children}
    </button>
  );
}
