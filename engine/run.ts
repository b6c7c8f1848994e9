/** Runs the long build commands of engine provisioning (go, the language hosts' build script). */
import { spawn } from "node:child_process";

/**
 * Runs a command, turning `go build -v` package lines into a compact progress count and
 * keeping the tail of the output for the error message.
 */
export function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const tail: string[] = [];
    let packages = 0;
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) {
        if (!line.trim()) continue;
        tail.push(line);
        if (tail.length > 20) tail.shift();
        if (/^[\w.-]+(\/[\w.~-]+)+$/.test(line.trim())) {
          packages += 1;
          if (packages % 100 === 0) log(`  compiled ${packages} packages…`);
        } else if (line.startsWith("go: downloading")) {
          packages += 1;
          if (packages % 50 === 0) log(`  downloaded ${packages} modules…`);
        }
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`${command} ${args.join(" ")} failed (exit ${code}):\n${tail.join("\n")}`));
    });
  });
}
