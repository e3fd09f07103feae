/**
 * The MCP server's stdio transport: newline-delimited JSON-RPC on stdin and
 * stdout (MCP's stdio transport). Each line goes through
 * {@link screenLine}: a message reaches the server, a malformed line is
 * answered at once with its JSON-RPC error and the stream goes on. (The
 * SDK's own transport only reports such a line to the server's `onerror`,
 * and the client waits for an answer that never comes.) A line longer
 * than {@link MAX_LINE_BYTES} is dropped, not buffered, and answered with
 * `-32600`.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import process from "node:process";
import type { Readable, Writable } from "node:stream";
// The SDK's wildcard export maps types to `*.js.d.ts`, which do not exist: point Deno at them.
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/shared/transport.d.ts"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { type ErrorReply, screenLine } from "./rpc-gate.ts";

/** The longest line read (as the SDK's transport: 10 MiB). */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** A line over the limit is being dropped until its end. */
  #dropping = false;
  #started = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {}

  #ondata = (chunk: Buffer | string) => {
    let data = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10)) {
      const tail = data.subarray(0, nl);
      data = data.subarray(nl + 1);
      if (this.#dropping) {
        this.#dropping = false;
        this.#tooLong();
        continue;
      }
      const line = Buffer.concat([...this.#pending, tail]).toString("utf8").replace(/\r$/, "");
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#line(line);
    }
    if (this.#dropping || data.length === 0) return;
    this.#pending.push(data);
    this.#pendingBytes += data.length;
    if (this.#pendingBytes > MAX_LINE_BYTES) {
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#dropping = true;
    }
  };

  #onerror = (error: Error) => this.onerror?.(error);

  #tooLong(): void {
    this.#write({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: ErrorCode.InvalidRequest,
        message: `Invalid Request: a line over ${MAX_LINE_BYTES} bytes was dropped`,
      },
    });
  }

  #line(line: string): void {
    const screened = screenLine(line);
    if ("reply" in screened) this.#write(screened.reply);
    else if ("message" in screened) this.onmessage?.(screened.message);
  }

  #write(message: JSONRPCMessage | ErrorReply): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(JSON.stringify(message) + "\n")) resolve();
      else this.output.once("drain", resolve);
    });
  }

  start(): Promise<void> {
    if (this.#started) throw new Error("the stdio transport is already started");
    this.#started = true;
    this.input.on("data", this.#ondata);
    this.input.on("error", this.#onerror);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(message);
  }

  close(): Promise<void> {
    this.input.off("data", this.#ondata);
    this.input.off("error", this.#onerror);
    if (this.input.listenerCount("data") === 0) this.input.pause();
    this.#pending = [];
    this.onclose?.();
    return Promise.resolve();
  }
}
