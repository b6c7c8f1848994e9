/** Text made safe for the markdown report (markdown.ts, policyMarkdown.ts): table cells and inline code. */

/** Makes text safe inside a table cell. */
export function cell(text: string): string {
  return text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
}

/** Inline code that survives backticks in the value. */
export function code(text: string): string {
  const fence = text.includes("`") ? "``" : "`";
  return cell(`${fence}${text.includes("`") ? ` ${text} ` : text}${fence}`);
}
