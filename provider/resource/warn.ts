/**
 * Warnings from the provider process. The engine shows a provider's stderr as diagnostics of
 * the resource being processed, so people see them in the update's output.
 */
export function warn(message: string): void {
  console.error(`warning: ${message}`);
}
