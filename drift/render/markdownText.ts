/** Text made safe for the markdown report: table cells, inline code, sentences. */

/** Text on one line, for a list item or a quoted note. */
export function oneLine(text: string): string {
  return text.replace(/\r?\n/g, " ");
}

/**
 * Text on one line whose `<` outside code spans cannot open an HTML tag: GitHub would hide a
 * message's `<line 1>`. Inside a code span it shows as written.
 */
export function prose(text: string): string {
  return oneLine(text).replace(/(`+)[\s\S]*?\1|</g, (match) => (match === "<" ? "&lt;" : match));
}

/** Makes text safe inside a table cell. */
export function cell(text: string): string {
  return prose(text).replace(/\|/g, "\\|");
}

/** Inline code that survives backticks in the value, for prose: a command stays runnable as printed. */
export function inline(text: string): string {
  const fence = text.includes("`") ? "``" : "`";
  return `${fence}${text.includes("`") ? ` ${text} ` : text}${fence}`;
}

/** Inline code made safe inside a table cell. */
export function code(text: string): string {
  return cell(inline(text));
}

/** `text` without the full stop it may end with, to be joined into a longer sentence. */
export function clause(text: string): string {
  return text.trimEnd().replace(/\.$/, "");
}
