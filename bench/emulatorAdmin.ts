/** The emulator's admin API (`/_emulator/...`) as the bench drives it. */

/** Calls `method path` on the emulator at `url`; its answer as JSON. A body is sent as JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- admin answers of several shapes
export async function admin(url: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${url}/_emulator${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} /_emulator${path}: ${response.status} ${await response.text()}`);
  return response.json();
}
