/**
 * One MCP server seen from a child: started (a stdio command, or an HTTP
 * endpoint) with the official SDK's client, its tools listed, its tools
 * called, and closed with its whole process tree. Decides the time limits
 * (start and listing within {@link MCP_START_TIMEOUT_MS}, each call within
 * {@link MCP_CALL_TIMEOUT_MS}; `XCSH_MCP_TIMEOUT_MS` overrides both) and the
 * wording of every failure, which always names the server: a command that
 * does not exist, a server that exits or never answers, a call cut short by
 * a crash.
 *
 * @module
 */
import { MCP_CALL_TIMEOUT_MS, MCP_START_TIMEOUT_MS } from "./mcp-limits.ts";
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's wildcard export maps types to `*.js.d.ts`, which do not exist: point Deno at them.
// @ts-types="../../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="../../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.d.ts"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="../../../node_modules/@modelcontextprotocol/sdk/dist/esm/shared/transport.d.ts"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isAbsolute, resolve } from "node:path";
import { isRunning, killPids, listDescendants } from "../../process/process-tree.ts";
import { withoutRuntimeVariables } from "../../process/runtime-variables.ts";
import type { McpServerDef } from "../../types.ts";
import { expandDefinition } from "./mcp-expand.ts";
import { withGitSettings } from "../../process/git-config-rule.ts";
import { isSecretVariable } from "../../text/secrets.ts";
import { mcpResultText } from "./mcp-result.ts";
import { toolError, type ToolOutcome } from "../tool-spec.ts";

export { MCP_CALL_TIMEOUT_MS, MCP_START_TIMEOUT_MS };
const STDERR_TAIL = 2000;

/**
 * What a stdio server inherits from the child's environment (its definition's
 * `env` adds the rest): the basics a program needs, locale, temp folder, XDG
 * folders and proxy settings; never provider keys or other secrets (a proxy
 * URL with a password is one, `text/secrets.ts`).
 */
const INHERITED_ENV =
  /^(PATH|HOME|USER|LOGNAME|SHELL|TERM|LANG|LANGUAGE|LC_\w+|TMPDIR|TZ|XDG_\w+|(HTTPS?|NO|ALL)_PROXY|(https?|no|all)_proxy|NODE_EXTRA_CA_CERTS|SSL_CERT_(FILE|DIR))$/;

/** A tool a server offers, as listed. */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  readOnly: boolean;
}

export interface McpConnection {
  server: string;
  tools: McpToolInfo[];
  call(tool: string, args: unknown, signal: AbortSignal): Promise<ToolOutcome>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Git settings a stdio server's environment carries (as commands' do, `command-env.ts`). */
  gitSettings?: readonly (readonly [string, string])[];
  startTimeoutMs?: number;
  callTimeoutMs?: number;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Starts `def` as server `name` and lists its tools; never throws. */
export async function connectMcpServer(
  name: string,
  raw: McpServerDef,
  opts: ConnectOptions,
): Promise<{ ok: true; conn: McpConnection } | { ok: false; error: string }> {
  const { def, missing } = expandDefinition(raw, opts.env);
  const label = `MCP server '${name}'`;
  if (missing.length > 0) {
    return {
      ok: false,
      error: `${label} was not started: its definition uses ${
        missing.map((m) => `\${${m}}`).join(", ")
      }, which ${missing.length === 1 ? "is" : "are"} not set`,
    };
  }
  const startMs = opts.startTimeoutMs ?? MCP_START_TIMEOUT_MS;
  const callMs = opts.callTimeoutMs ?? MCP_CALL_TIMEOUT_MS;
  let stderr = "";
  let transport: Transport;
  let stdio: StdioClientTransport | undefined;
  let what: string;
  if (def.type === "stdio") {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.env)) {
      if (v !== undefined && INHERITED_ENV.test(k) && !isSecretVariable(k, v)) {
        env[k] = v;
      }
    }
    stdio = new StdioClientTransport({
      command: def.command,
      args: def.args,
      // Not even a definition's own `env` hands a server a runtime's flags; a
      // server that runs git (on the project's repository) gets the settings
      // a command's git gets: no hooks, no repository programs.
      env: withoutRuntimeVariables(withGitSettings({ ...env, ...def.env }, opts.gitSettings ?? [])),
      cwd: def.cwd ? (isAbsolute(def.cwd) ? def.cwd : resolve(opts.cwd, def.cwd)) : opts.cwd,
      stderr: "pipe",
    });
    stdio.stderr?.on("data", (d: Buffer | string) => {
      stderr = (stderr + d.toString()).slice(-STDERR_TAIL);
    });
    transport = stdio;
    what = `command "${def.command}"`;
  } else {
    let url: URL;
    try {
      url = new URL(def.url);
    } catch {
      return { ok: false, error: `${label}: not a valid URL: ${def.url}` };
    }
    transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: def.headers } });
    what = def.url;
  }
  const tail = () => {
    const t = stderr.trim().split("\n").slice(-3).join(" | ").slice(-400);
    return t ? `; its last output: ${t}` : "";
  };
  const client = new Client({ name: "xcsh", version: "1" });
  let closedReason: string | undefined;
  client.onclose = () => {
    closedReason ??= "it exited";
  };
  client.onerror = () => {};
  const close = async () => {
    closedReason ??= "closed";
    const pid = stdio?.pid;
    // Collected first: once the server is gone its children are re-parented.
    const members = pid ? [pid, ...listDescendants(pid)] : [];
    const closing = client.close().catch(() => {});
    killPids(members, "SIGTERM");
    await closing;
    killPids(members.filter(isRunning), "SIGKILL");
  };

  const timer = AbortSignal.timeout(startMs);
  try {
    await client.connect(transport, { timeout: startMs, signal: timer });
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, {
        timeout: startMs,
        signal: timer,
      });
      for (const t of page.tools) {
        tools.push({
          name: t.name,
          description: t.description ?? t.title ?? "",
          inputSchema: (t.inputSchema ?? { type: "object" }) as Record<string, unknown>,
          readOnly: t.annotations?.readOnlyHint === true,
        });
      }
      cursor = page.nextCursor;
    } while (cursor && tools.length < 1000);
    const conn: McpConnection = {
      server: name,
      tools,
      close,
      async call(tool, args, signal) {
        if (closedReason && closedReason !== "closed") {
          return toolError(`${label} is not running (${closedReason}${tail()})`);
        }
        try {
          const result = await client.callTool(
            { name: tool, arguments: (args ?? {}) as Record<string, unknown> },
            undefined,
            { timeout: callMs, signal },
          );
          return mcpResultText(result, `${name}/${tool}`);
        } catch (err) {
          if (signal.aborted) throw err;
          const m = message(err);
          if (closedReason) {
            return toolError(`${label} stopped while running '${tool}' (${closedReason}${tail()})`);
          }
          if (/timed out|timeout/i.test(m)) {
            return toolError(`${label} did not answer '${tool}' within ${callMs / 1000} s`);
          }
          return toolError(`${label}: '${tool}' failed: ${m}`);
        }
      },
    };
    return { ok: true, conn };
  } catch (err) {
    const m = message(err);
    await close();
    let why: string;
    if (/ENOENT|not found/i.test(m) && def.type === "stdio") {
      why = `${what} was not found (check the command and PATH)`;
    } else if (timer.aborted || /timed out|timeout/i.test(m)) {
      why = `it did not answer within ${startMs / 1000} s`;
    } else if (closedReason && closedReason !== "closed") {
      why = `it exited before it was ready${tail()}`;
    } else why = m + tail();
    return { ok: false, error: `${label} (${what}) could not start: ${why}` };
  }
}
