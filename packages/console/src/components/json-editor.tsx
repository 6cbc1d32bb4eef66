/**
 * A JSON editor: a plain textarea (light, accessible, fine for 100 KB) with its problems shown right
 * under it — the local syntax error while typing, and the API's check problems (pointer + message)
 * after a check. Ctrl+Enter (⌘+Enter) submits.
 */

import type { CheckProblem } from "@toolhost/protocol/wire";
import { type KeyboardEvent, useId } from "react";
import { useText } from "../i18n/language.js";

/** The syntax error of `text` as JSON, or undefined when it parses. */
export function jsonSyntaxError(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Props of one editor. */
export interface JsonEditorProps {
  readonly label: string;
  readonly value: string;
  readonly onChange: (text: string) => void;
  readonly onSubmit?: () => void;
  /** The API's problems with the last checked value. */
  readonly problems?: readonly CheckProblem[];
  readonly rows?: number;
  readonly testId?: string;
}

/** One labelled JSON textarea and its inline messages. */
export function JsonEditor({ label, value, onChange, onSubmit, problems = [], rows = 6, testId }: JsonEditorProps) {
  const t = useText();
  const id = useId();
  const syntax = jsonSyntaxError(value);
  const invalid = syntax !== undefined || problems.length > 0;
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && onSubmit !== undefined) {
      event.preventDefault();
      onSubmit();
    }
  };
  return (
    <div className="editor" data-testid={testId}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        value={value}
        rows={rows}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={invalid}
        aria-describedby={invalid ? `${id}-problems` : undefined}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {invalid && (
        <ul className="problems" id={`${id}-problems`} data-testid="problems">
          {syntax !== undefined && <li>{t("schema.syntax", { message: syntax })}</li>}
          {problems.map((problem) => (
            <li key={`${problem.pointer}:${problem.message}`}>
              <code>{problem.pointer === "" ? "/" : problem.pointer}</code> {problem.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
