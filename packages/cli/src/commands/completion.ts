/**
 * `toolhost completion bash|zsh`: prints a shell completion script for the command tree as this
 * program defines it (commands, subcommands and their options), so it never drifts from the code.
 * bash: `source <(toolhost completion bash)`; zsh: `source <(toolhost completion zsh)` (it loads
 * bashcompinit and uses the same function).
 */

import { type Command, InvalidArgumentError } from "commander";
import type { CommandDefinition } from "../command-context.js";
import { EXIT_STATUS } from "../exit-status.js";
import { PROGRAM_NAME } from "../refusal.js";

/** The shells a script is printed for. */
export const COMPLETION_SHELLS = ["bash", "zsh"] as const;

/** Every command path (`""`, `runs`, `runs list`, …) with the words that may follow it. */
export function completionWords(root: Command): Map<string, string[]> {
  const words = new Map<string, string[]>();
  const visit = (command: Command, path: string): void => {
    const subcommands = command.commands.map((sub) => sub.name());
    const options = command.options
      .flatMap((option) => [option.long, option.short])
      .filter((flag) => flag !== undefined);
    words.set(path, [...subcommands, ...(options as string[]), "--help"]);
    for (const sub of command.commands) visit(sub, path === "" ? sub.name() : `${path} ${sub.name()}`);
  };
  visit(root, "");
  return words;
}

/** The bash completion function over `words`. */
export function bashScript(words: Map<string, string[]>): string {
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  const cases = [...words].map(([path, list]) => `    ${quote(path)}) echo ${quote(list.join(" "))} ;;`).join("\n");
  const known = [...words.keys()]
    .filter((path) => path !== "")
    .map(quote)
    .join("|");
  return `# ${PROGRAM_NAME} completion (bash): source <(${PROGRAM_NAME} completion bash)
_${PROGRAM_NAME}_words() {
  case "$1" in
${cases}
  esac
}
_${PROGRAM_NAME}_known() {
  case "$1" in
    ${known}) return 0 ;;
    *) return 1 ;;
  esac
}
_${PROGRAM_NAME}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" next i
  for ((i = 1; i < COMP_CWORD; i++)); do
    next="\${path:+$path }\${COMP_WORDS[i]}"
    if _${PROGRAM_NAME}_known "$next"; then path="$next"; fi
  done
  COMPREPLY=($(compgen -W "$(_${PROGRAM_NAME}_words "$path")" -- "$cur"))
}
complete -F _${PROGRAM_NAME} ${PROGRAM_NAME}
`;
}

/** The zsh script: bash's function through zsh's bashcompinit. */
export function zshScript(words: Map<string, string[]>): string {
  return `# ${PROGRAM_NAME} completion (zsh): source <(${PROGRAM_NAME} completion zsh)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bashScript(words).split("\n").slice(1).join("\n")}`;
}

/** Parses the shell argument. */
function parseShell(value: string): (typeof COMPLETION_SHELLS)[number] {
  const shell = COMPLETION_SHELLS.find((name) => name === value);
  if (shell === undefined) throw new InvalidArgumentError(`must be one of ${COMPLETION_SHELLS.join(", ")}`);
  return shell;
}

/** Defines `toolhost completion`. */
export const defineCompletionCommand: CommandDefinition = (program, context) =>
  program
    .command("completion")
    .summary("print a shell completion script (bash, zsh)")
    .description("Print a completion script: source <(toolhost completion bash), or zsh in ~/.zshrc.")
    .argument("<shell>", `one of ${COMPLETION_SHELLS.join(", ")}`, parseShell)
    .action(async (shell: (typeof COMPLETION_SHELLS)[number]) => {
      const words = completionWords(program);
      await context.stdout.write(shell === "bash" ? bashScript(words) : zshScript(words));
      context.setExitStatus(EXIT_STATUS.ok);
    });
