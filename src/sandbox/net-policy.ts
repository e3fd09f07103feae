/**
 * What a sandboxed command may reach over the network (`task.sandboxNetwork`).
 *
 * Decides the written forms (`false`: nothing; `true`: any public host;
 * `{ allow: [hosts] }`: only those hosts; `host`: the host's own network
 * namespace, no proxy), how two settings combine into one no looser than
 * either (a project's setting over the user's, a delegated task under its
 * caller: every allow list must name a host, and a setting that allows only
 * public addresses keeps that rule), and which resolved addresses of a host
 * the proxy may connect to. The address rule itself (what is public, what an
 * allow entry opens) is `net/net-address.ts`'s. Pure.
 *
 * @example
 * ```ts
 * parseSandboxNetwork({ allow: ["registry.npmjs.org", "*.github.com"] });
 * // { allow: [["registry.npmjs.org", "*.github.com"]] }
 * narrowNetwork(true, { allow: [["localhost"]] });
 * // { allow: [["localhost"]], publicOnly: true }: localhost stays refused
 * checkDestination("localhost", ["127.0.0.1"], {});
 * // { ok: false, error: "localhost resolves to 127.0.0.1, a loopback address (this machine) …" }
 * ```
 *
 * @module
 */
import {
  addressProblem,
  allowedByEntries,
  parseAddress,
  parseAllowEntry,
} from "../net/net-address.ts";
import type { NetReach } from "../types.ts";

/** A setting as the config holds it: off, on (any public host), or on with a reach. */
export type SandboxNetwork = boolean | NetReach;

/**
 * The written value's meaning, or a message saying what is wrong. Besides
 * the forms above it reads back the setting as xcsh passes it on to its
 * child processes (`{ allow: [[…], […]], publicOnly: true }`, `{ host: true }`).
 */
export function parseSandboxNetwork(value: unknown): SandboxNetwork | string {
  if (typeof value === "boolean") return value;
  if (value === "host") return { host: true };
  const shape = "true or false, host, or { allow: [host names, *.domains, addresses or ranges] }";
  if (typeof value !== "object" || value === null || Array.isArray(value)) return shape;
  const v = value as Record<string, unknown>;
  if (Object.keys(v).some((k) => !["allow", "publicOnly", "host"].includes(k))) return shape;
  if (v.host !== undefined) {
    return v.host === true && Object.keys(v).length === 1 ? { host: true } : shape;
  }
  if (!Array.isArray(v.allow)) return shape;
  if (v.publicOnly !== undefined && typeof v.publicOnly !== "boolean") return shape;
  const lists = v.allow.every((l) => Array.isArray(l)) && v.allow.length > 0
    ? v.allow as unknown[][]
    : [v.allow];
  const allow: string[][] = [];
  for (const list of lists) {
    const entries: string[] = [];
    for (const entry of list) {
      if (typeof entry !== "string") return shape;
      const parsed = parseAllowEntry(entry);
      if (typeof parsed === "string") return `an allow list of hosts: ${parsed}`;
      entries.push(entry.trim());
    }
    allow.push(entries);
  }
  return v.publicOnly === true ? { allow, publicOnly: true } : { allow };
}

/** The reach of a setting that is on, or undefined when it is off. */
function reachOf(n: SandboxNetwork): NetReach | undefined {
  return n === false ? undefined : n === true ? {} : n;
}

/** True when a reach admits only public addresses (no list of its own opens another). */
function publicOnly(r: NetReach): boolean {
  return !r.host && (r.publicOnly === true || (r.allow ?? []).length === 0);
}

/** One setting no looser than either `a` or `b`. */
export function narrowNetwork(a: SandboxNetwork, b: SandboxNetwork): SandboxNetwork {
  const ra = reachOf(a);
  const rb = reachOf(b);
  if (!ra || !rb) return false;
  if (ra.host && rb.host) return { host: true };
  const allow = [...(ra.host ? [] : ra.allow ?? []), ...(rb.host ? [] : rb.allow ?? [])];
  const pub = (!ra.host && publicOnly(ra)) || (!rb.host && publicOnly(rb));
  if (allow.length === 0) return true;
  return pub ? { allow, publicOnly: true } : { allow };
}

/** True when a sandbox shares the host's network namespace (`host`; no proxy). */
export function sharesHostNetwork(s: { network: boolean; reach?: NetReach }): boolean {
  return s.network && s.reach?.host === true;
}

/** True when a sandbox's commands get the network through the proxy. */
export function usesProxy(s: { network: boolean; reach?: NetReach }): boolean {
  return s.network && s.reach?.host !== true;
}

/** The addresses of `host` the proxy may connect to, or why none. */
export type Destination = { ok: true; addresses: string[] } | { ok: false; error: string };

/**
 * Which of `addresses` (what `host` resolved to; the host itself when it is
 * an address) a command with `reach` may connect to: every allow list must
 * open the host (by name, or its address by range), and an address that is
 * not public needs a list that opens it and no rule of public addresses only.
 */
export function checkDestination(
  host: string,
  addresses: readonly string[],
  reach: NetReach,
): Destination {
  const name = host.toLowerCase().replace(/\.$/, "");
  const lists = reach.host ? [] : reach.allow ?? [];
  const pub = publicOnly(reach);
  const ok: string[] = [];
  let refused: string | undefined;
  for (const address of addresses) {
    const missing = lists.findIndex((l) => !allowedByEntries(l, name, address));
    const problem = addressProblem(address);
    if (missing >= 0) refused ??= "is not on the allow list";
    else if (problem !== undefined && pub) {
      refused ??= `${parseAddress(name) ? "is" : `resolves to ${address}, which is`} ${problem}`;
    } else ok.push(address);
  }
  if (ok.length > 0) return { ok: true, addresses: ok };
  if (refused === undefined) return { ok: false, error: `${name} has no address` };
  const open = pub && lists.length === 0
    ? "sandboxed commands reach only public addresses (an allow list in your own config opens others)"
    : "task.sandboxNetwork's allow list decides which hosts commands reach";
  return { ok: false, error: `${name} ${refused}; ${open}` };
}

/** How a setting reads in `xcsh doctor`: `on (any public host)`. */
export function describeNetwork(network: boolean, reach: NetReach | undefined): string {
  if (!network) return "off";
  if (reach?.host) return "on (the host's network, shared)";
  const lists = reach?.allow ?? [];
  if (lists.length === 0) return "on, through a proxy (any public host)";
  return `on, through a proxy (only ${lists.map((l) => l.join(", ")).join("; and ")})`;
}
