/**
 * Whether a `WebFetch(domain:…)` permission rule covers a URL's host or an
 * address that host resolves to. Hosts and rules are compared in one form:
 * lower-case, without a trailing dot, international names as their ASCII
 * (punycode) form, addresses as bytes, an IPv6 address that carries an IPv4
 * one (`::ffff:127.0.0.1`) as that IPv4 address (`net/net-address.ts`, as
 * `web_fetch`'s own address check does).
 *
 * Decides:
 * - a name rule (`example.com`, `*.example.com`) covers that host and every
 *   host under it;
 * - an address rule (`127.0.0.1`, `[::1]`, `10.0.0.0/8`) covers a host
 *   written as an address in it and, checked after resolution, a name that
 *   resolves to one ({@link ruleCoversAddress});
 * - `localhost` (and `*.localhost`) stands for every loopback address
 *   (RFC 6761), both ways.
 *
 * Pure: the caller resolves names.
 *
 * @example
 * ```ts
 * ruleCoversHost("domain:127.0.0.1", "[::ffff:7f00:1]"); // true
 * ruleCoversHost("domain:Example.COM.", "docs.example.com"); // true
 * ruleCoversAddress("domain:127.0.0.1", "127.0.0.1"); // true (for a host named localhost)
 * ```
 *
 * @module
 */
import { domainToASCII } from "node:url";
import {
  type AddressBytes,
  effectiveAddress,
  parseAddress,
  parseAllowEntry,
} from "../../net/net-address.ts";

type Target =
  | { kind: "name"; name: string }
  | { kind: "range"; base: AddressBytes; bits: number }
  | { kind: "none" };

/** 127.0.0.0/8 and ::1, as bytes (nothing parsed when the module loads). */
const LOOPBACK: readonly { base: AddressBytes; bits: number }[] = [
  { base: [127, 0, 0, 0], bits: 8 },
  { base: [...Array(15).fill(0), 1], bits: 128 },
];

/** A host name or address in the one form rules and hosts are compared in. */
export function normalHost(text: string): string {
  let s = text.trim().toLowerCase();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  s = s.replace(/\.$/, "");
  if (parseAddress(s)) return s;
  return domainToASCII(s) || s;
}

/** An address as written and as the IPv4 address it carries (when it does). */
function addressForms(text: string): AddressBytes[] | undefined {
  const parsed = parseAddress(normalHost(text));
  if (!parsed) return undefined;
  const v4 = effectiveAddress(parsed);
  return v4 === parsed ? [parsed] : [parsed, v4];
}

/** What a rule's `domain:…` names. */
function targetOf(pattern: string): Target {
  const spec = pattern.replace(/^domain:/, "").trim().replace(/^\*\./, "");
  const bare = spec.startsWith("[") ? spec.replace(/^\[([^\]]*)\]/, "$1") : spec;
  const slash = bare.indexOf("/");
  const addr = parseAddress(slash >= 0 ? bare.slice(0, slash) : bare);
  if (addr) {
    const entry = parseAllowEntry(bare);
    if (typeof entry === "string" || entry.kind !== "range") return { kind: "none" };
    // `::ffff:a.b.c.d/n` (and NAT64's `64:ff9b::a.b.c.d/n`) names the IPv4
    // range it carries.
    const v4 = effectiveAddress(entry.base);
    if (entry.base.length === 16 && entry.bits >= 96 && v4.length === 4) {
      const tail = entry.base.slice(12);
      if (v4.every((b, i) => b === tail[i])) {
        return { kind: "range", base: v4, bits: entry.bits - 96 };
      }
    }
    return { kind: "range", base: entry.base, bits: entry.bits };
  }
  const name = normalHost(spec);
  return name === "" ? { kind: "none" } : { kind: "name", name };
}

function inRange(bytes: AddressBytes, base: AddressBytes, bits: number): boolean {
  if (bytes.length !== base.length) return false;
  for (let i = 0; i < bits; i++) {
    const mask = 0x80 >> (i & 7);
    if ((bytes[i >> 3] & mask) !== (base[i >> 3] & mask)) return false;
  }
  return true;
}

const isLocalhost = (name: string) => name === "localhost" || name.endsWith(".localhost");
const isLoopback = (forms: AddressBytes[]) =>
  forms.some((b) => LOOPBACK.some((r) => inRange(b, r.base, r.bits)));
const covers = (forms: AddressBytes[], t: { base: AddressBytes; bits: number }) =>
  forms.some((b) => inRange(b, t.base, t.bits));
/** Whether the range `t` shares an address with the loopback ranges. */
const meetsLoopback = (t: { base: AddressBytes; bits: number }) =>
  LOOPBACK.some((r) => inRange(t.base, r.base, Math.min(t.bits, r.bits)));

/** Whether the rule `pattern` (`domain:…`) covers `host`, a URL's host name or address. */
export function ruleCoversHost(pattern: string, host: string): boolean {
  const target = targetOf(pattern);
  const name = normalHost(host);
  const forms = addressForms(name);
  if (target.kind === "name") {
    if (forms) return isLocalhost(target.name) && isLoopback(forms);
    return name === target.name || name.endsWith("." + target.name);
  }
  if (target.kind === "range") {
    if (forms) return covers(forms, target);
    return isLocalhost(name) && meetsLoopback(target);
  }
  return false;
}

/** Whether the rule `pattern` covers `address`, one the URL's host resolved to. */
export function ruleCoversAddress(pattern: string, address: string): boolean {
  const target = targetOf(pattern);
  const forms = addressForms(address);
  if (!forms) return false;
  if (target.kind === "range") return covers(forms, target);
  if (target.kind === "name") return isLocalhost(target.name) && isLoopback(forms);
  return false;
}
