/**
 * Splits `--command "npx -y @modelcontextprotocol/server-filesystem /tmp/dir"` into the program and
 * its arguments, the way a POSIX shell splits words — single and double quotes, backslash escapes —
 * without running a shell (no expansion, no pipes: the MCP server is started directly).
 */

/** The words of `line`; throws when a quote is left open. */
export function commandLineWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
      continue;
    }
    if (char === "\\" && i + 1 < line.length) {
      const next = line[i + 1] as string;
      // Inside double quotes a backslash escapes only what the shell lets it escape.
      if (quote === undefined || next === '"' || next === "\\" || next === "$" || next === "`") {
        word += next;
        i++;
        inWord = true;
        continue;
      }
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else word += char;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new Error(`unterminated ${quote} quote in ${JSON.stringify(line)}`);
  if (inWord) words.push(word);
  return words;
}
