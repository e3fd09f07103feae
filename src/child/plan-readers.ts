/**
 * The readers a child checks its plan's borrowed parts with
 * (`protocol/envelope.ts`'s `PlanReaders`): the parent's configuration as a
 * config file is checked (never loaded from disk: `config/load` is the
 * parent's), MCP server definitions and hooks as discovery reads them.
 *
 * @example
 * ```ts
 * import { parseEnvelope } from "../protocol/envelope.ts";
 *
 * const r = parseEnvelope("{}", planReaders);
 * // r.ok === false: "invalid envelope: the plan is task envelope version none; …"
 * ```
 *
 * @module
 */
import { mergeConfigs, validateConfig } from "../config/validate.ts";
import { untypedProvider, untypedProviderMessage } from "../model/providers.ts";
import { checkMcpDefinition, checkMcpServerMap } from "../discovery/mcp-definition.ts";
import { parseHooks } from "../discovery/hook-config.ts";
import type { PlanReaders } from "../protocol/envelope.ts";

/** The real readers of a plan's config, MCP definitions and hooks. */
export const planReaders: PlanReaders = {
  config(v) {
    const checked = validateConfig(v, "config");
    if (!checked.ok) return { ok: false, field: "config", message: checked.error.message };
    if (checked.warnings.length > 0) {
      return { ok: false, field: "config", message: checked.warnings[0].message };
    }
    const config = mergeConfigs([checked.value]);
    const untyped = untypedProvider(config);
    if (untyped !== undefined) {
      return { ok: false, field: "config", message: untypedProviderMessage(untyped) };
    }
    return { ok: true, value: config };
  },
  mcpDefinition: checkMcpDefinition,
  mcpServers: checkMcpServerMap,
  hooks(v, field) {
    const read = parseHooks(v);
    if (!read.ok) {
      return { ok: false, field: read.field.replace(/^hooks/, field), message: read.message };
    }
    return { ok: true, value: read.hooks };
  },
};
