/** Long text in a scrolling block that the keyboard can reach, and JSON values shown indented in one. */

import type { ReactNode } from "react";

/** A `<pre>` that scrolls and takes focus, so keyboard users can scroll it too. */
export function ScrollText({
  children,
  className,
  testId,
}: {
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must take focus for the keyboard to scroll it.
    <pre className={`json ${className ?? ""}`} data-testid={testId} tabIndex={0}>
      {children}
    </pre>
  );
}

/** `value` pretty-printed. */
export function JsonText({ value }: { value: unknown }) {
  return <ScrollText>{JSON.stringify(value, null, 2)}</ScrollText>;
}
