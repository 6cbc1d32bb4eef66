/** Appends one reference token to a JSON pointer (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function pointerAppend(pointer: string, token: string | number): string {
  const text = String(token);
  if (text.indexOf("~") === -1 && text.indexOf("/") === -1) return `${pointer}/${text}`;
  return `${pointer}/${text.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}
