/**
 * The bridge inside the sandbox: `xcsh __netbridge SOCKET -- PROGRAM ARGS…`.
 *
 * A sandboxed command with network has a network namespace of its own, with
 * only a loopback. The bridge listens on `127.0.0.1` there (a free port),
 * hands every connection to the proxy's Unix socket (`net-proxy.ts`,
 * outside the sandbox), runs the command as its child with the proxy
 * variables set ({@link proxyEnvironment}), passes on the signals that end
 * it, and exits with its status (128 + the signal's number when a signal
 * ended it).
 *
 * @module
 */
import { spawn } from "node:child_process";
import net from "node:net";
import { constants } from "node:os";
import process from "node:process";
import { writeErr } from "../text/stdio.ts";

/** The variables that point a command's HTTP clients at the bridge on `port`. */
export function proxyEnvironment(port: number): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  const none = "localhost,127.0.0.1,::1";
  const env: Record<string, string> = {};
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"]) {
    env[name] = url;
    env[name.toLowerCase()] = url;
  }
  env.NO_PROXY = none;
  env.no_proxy = none;
  return env;
}

/** Listens on 127.0.0.1 (a free port) and forwards each connection to `socket`. */
export function startBridge(socket: string): Promise<{ port: number; close(): void }> {
  const server = net.createServer((client) => {
    const upstream = net.connect(socket);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      server.unref();
      const port = (server.address() as net.AddressInfo).port;
      resolve({ port, close: () => server.close() });
    });
  });
}

/** `xcsh __netbridge SOCKET -- PROGRAM ARGS…`: the command's exit status. */
export async function netBridgeCommand(args: string[]): Promise<number> {
  const [socket, dashes, program, ...rest] = args;
  if (!socket || dashes !== "--" || !program) {
    writeErr("xcsh __netbridge: usage: xcsh __netbridge SOCKET -- PROGRAM [ARGS…]\n");
    return 2;
  }
  let bridge: { port: number };
  try {
    bridge = await startBridge(socket);
  } catch (err) {
    writeErr(`xcsh: the sandbox's network bridge cannot start: ${(err as Error).message}\n`);
    return 126;
  }
  const child = spawn(program, rest, {
    stdio: "inherit",
    env: { ...process.env, ...proxyEnvironment(bridge.port) },
  });
  const signals = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
  const pass = (s: NodeJS.Signals) => child.kill(s);
  for (const s of signals) process.on(s, pass);
  const status = await new Promise<number>((resolve) => {
    child.on("error", (err) => {
      writeErr(`xcsh: cannot run ${program}: ${err.message}\n`);
      resolve(127);
    });
    child.on("exit", (code, signal) => {
      resolve(code ?? 128 + (signal ? constants.signals[signal] ?? 0 : 0));
    });
  });
  for (const s of signals) process.off(s, pass);
  return status;
}
