/**
 * What the model reads from an MCP tool's result: text parts as they are,
 * structured content as JSON (when no text part already carries it),
 * embedded text resources as their text, and images, audio and binary
 * resources summarised (`[image: image/png, 12 KB]`), never pasted as
 * base64. Cut at {@link MCP_RESULT_MAX_CHARS} (the whole text kept as
 * `full`, for the task's artifacts). `isError` makes it a tool
 * error. Pure.
 *
 * @example
 * ```ts
 * mcpResultText({ content: [{ type: "text", text: "hi" }] }, "fs/read").output; // "hi"
 * ```
 *
 * @module
 */
import type { ToolOutcome } from "../tool-spec.ts";

export const MCP_RESULT_MAX_CHARS = 100_000;

// deno-lint-ignore no-explicit-any
type Part = Record<string, any>;

function size(base64: unknown): string {
  const bytes = typeof base64 === "string" ? Math.floor(base64.length * 3 / 4) : 0;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}

function partText(p: Part): string {
  switch (p?.type) {
    case "text":
      return typeof p.text === "string" ? p.text : "";
    case "image":
      return `[image: ${p.mimeType ?? "unknown type"}, ${size(p.data)}]`;
    case "audio":
      return `[audio: ${p.mimeType ?? "unknown type"}, ${size(p.data)}]`;
    case "resource": {
      const r = p.resource ?? {};
      if (typeof r.text === "string") return r.text;
      return `[resource ${r.uri ?? ""}: ${r.mimeType ?? "binary"}, ${size(r.blob)}]`;
    }
    case "resource_link":
      return `[resource link: ${p.name ?? ""} ${p.uri ?? ""}]`.replace(/\s+\]/, "]");
    default:
      return `[${String(p?.type ?? "unknown")} content]`;
  }
}

/** The tool outcome for an MCP `tools/call` result. */
export function mcpResultText(result: unknown, label: string): ToolOutcome {
  const r = (result ?? {}) as Part;
  const parts: Part[] = Array.isArray(r.content) ? r.content : [];
  const texts = parts.map(partText).filter((t) => t !== "");
  if (r.structuredContent !== undefined && r.structuredContent !== null) {
    const json = JSON.stringify(r.structuredContent, null, 2);
    if (!texts.some((t) => t.trim() === JSON.stringify(r.structuredContent) || t === json)) {
      texts.push(json);
    }
  }
  if (r.toolResult !== undefined && texts.length === 0) texts.push(JSON.stringify(r.toolResult));
  let output = texts.join("\n");
  const whole = output;
  if (output.length > MCP_RESULT_MAX_CHARS) {
    output = output.slice(0, MCP_RESULT_MAX_CHARS) +
      `\n[cut at ${MCP_RESULT_MAX_CHARS} of ${output.length} characters]`;
  }
  const isError = r.isError === true;
  if (output === "") output = isError ? "the tool reported an error" : "(no content)";
  const first = output.split("\n")[0].slice(0, 120);
  return {
    ok: !isError,
    output: isError ? `Error: ${output}` : output,
    summary: `${label}: ${isError ? first : `${output.length} chars`}`,
    // The whole text, for the task's artifacts (`child/spill.ts`).
    ...(whole !== output && whole.length > MCP_RESULT_MAX_CHARS
      ? { full: isError ? `Error: ${whole}` : whole }
      : {}),
  };
}
