/** Shell words for the commands the review and the scripts print for people to paste. */

/** A word as a POSIX shell reads it back unchanged: bare when safe, else single-quoted (a URL may hold `?` or `&`, a URN `$`). */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
