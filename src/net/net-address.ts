/**
 * Which network addresses are public, and which ones the user's own config
 * opens anyway. An address is refused when it lies in a range the IANA
 * special-purpose registries mark as not globally reachable (this machine,
 * the local network, link-local and cloud metadata, carrier-grade NAT,
 * documentation and benchmarking ranges, multicast, reserved); an IPv6
 * address that carries an IPv4 one (`::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`,
 * 6to4 `2002::/16`) is judged by the IPv4 address it carries. Allow entries
 * (`task.webFetchAllow`) are host names, `*.`-prefixed domain suffixes,
 * single addresses or CIDR ranges. Pure: the caller resolves names.
 *
 * @example
 * ```ts
 * addressProblem("169.254.169.254"); // "a link-local address (cloud metadata)"
 * addressProblem("93.184.215.14");   // undefined
 * allowedByEntries(["127.0.0.0/8"], "localhost", "127.0.0.1"); // true
 * ```
 *
 * @module
 */

/** An IP address as bytes: 4 for IPv4, 16 for IPv6. */
export type AddressBytes = number[];

/** The bytes of a dotted-quad IPv4 address in canonical form, or undefined. */
function parseIPv4(text: string): AddressBytes | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

/** The 16 bytes of an IPv6 address (`::` and a dotted IPv4 tail allowed), or undefined. */
function parseIPv6(text: string): AddressBytes | undefined {
  let s = text;
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (!/^[0-9a-fA-F:.]+$/.test(s) || !s.includes(":")) return undefined;
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(":");
  if (s.slice(lastColon + 1).includes(".")) {
    const v4 = parseIPv4(s.slice(lastColon + 1));
    if (!v4) return undefined;
    tail = v4;
    s = s.slice(0, lastColon + 1) + "0:0";
  }
  const halves = s.split("::");
  if (halves.length > 2) return undefined;
  const groups = (h: string) => (h === "" ? [] : h.split(":"));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  const out: number[] = [];
  for (const g of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    const n = parseInt(g, 16);
    out.push(n >> 8, n & 0xff);
  }
  if (tail.length === 4) out.splice(12, 4, ...tail);
  return out;
}

/**
 * The bytes of an IP address written as a URL host or a resolver answer
 * (`127.0.0.1`, `::1`, `[::1]`), or undefined when it is no IP address.
 */
export function parseAddress(text: string): AddressBytes | undefined {
  const s = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  return parseIPv4(s) ?? parseIPv6(s);
}

/** True when the first `bits` bits of `a` and `b` agree. */
function samePrefix(a: AddressBytes, b: AddressBytes, bits: number): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if ((a[byte] & mask) !== (b[byte] & mask)) return false;
  }
  return true;
}

interface Range {
  base: AddressBytes;
  bits: number;
  what: string;
}

function range(cidr: string, what: string): Range {
  const [base, bits] = cidr.split("/");
  return { base: parseAddress(base)!, bits: Number(bits), what };
}

/** IPv4 ranges that are not public. */
const v4Ranges = (): readonly Range[] => [
  range("0.0.0.0/8", 'a "this network" address'),
  range("10.0.0.0/8", "a private address"),
  range("100.64.0.0/10", "a carrier-grade NAT address"),
  range("127.0.0.0/8", "a loopback address (this machine)"),
  range("169.254.0.0/16", "a link-local address (cloud metadata)"),
  range("172.16.0.0/12", "a private address"),
  range("192.0.0.0/24", "an IETF protocol address"),
  range("192.0.2.0/24", "a documentation address"),
  range("192.88.99.0/24", "a 6to4 relay address"),
  range("192.168.0.0/16", "a private address"),
  range("198.18.0.0/15", "a benchmarking address"),
  range("198.51.100.0/24", "a documentation address"),
  range("203.0.113.0/24", "a documentation address"),
  range("224.0.0.0/4", "a multicast address"),
  range("240.0.0.0/4", "a reserved or broadcast address"),
];

/** IPv6 ranges that are not public (those carrying IPv4 are handled apart). */
const v6Ranges = (): readonly Range[] => [
  range("::1/128", "a loopback address (this machine)"),
  range("::/96", "an unspecified or IPv4-compatible address"),
  range("64:ff9b:1::/48", "a local NAT64 address"),
  range("100::/64", "a discard address"),
  range("2001::/23", "an IETF protocol address"),
  range("2001:db8::/32", "a documentation address"),
  range("3fff::/20", "a documentation address"),
  range("5f00::/16", "a segment-routing address"),
  range("fc00::/7", "a unique-local (private) address"),
  range("fe80::/10", "a link-local address"),
  range("fec0::/10", "a site-local address"),
  range("ff00::/8", "a multicast address"),
];

/** The ranges, parsed on first use: most processes never check an address. */
let known:
  | { v4: readonly Range[]; v6: readonly Range[]; mapped: Range; nat64: Range; sixToFour: Range }
  | undefined;
function ranges(): NonNullable<typeof known> {
  return known ??= {
    v4: v4Ranges(),
    v6: v6Ranges(),
    mapped: range("::ffff:0:0/96", ""),
    nat64: range("64:ff9b::/96", ""),
    sixToFour: range("2002::/16", ""),
  };
}

/**
 * The IPv4 address an IPv6 address stands for (IPv4-mapped, NAT64 or
 * 6to4), or the address itself.
 */
export function effectiveAddress(bytes: AddressBytes): AddressBytes {
  if (bytes.length !== 16) return bytes;
  const { mapped, nat64, sixToFour } = ranges();
  if (samePrefix(bytes, mapped.base, 96) || samePrefix(bytes, nat64.base, 96)) {
    return bytes.slice(12);
  }
  if (samePrefix(bytes, sixToFour.base, 16)) return bytes.slice(2, 6);
  return bytes;
}

/**
 * Why `address` (an IP address as text) is not public, or undefined when it
 * is. Text that is no IP address is not public either.
 */
export function addressProblem(address: string): string | undefined {
  const parsed = parseAddress(address);
  if (!parsed) return "not an IP address";
  const bytes = effectiveAddress(parsed);
  const { v4, v6 } = ranges();
  // The most specific range names the address best.
  let best: Range | undefined;
  for (const r of bytes.length === 4 ? v4 : v6) {
    if (samePrefix(bytes, r.base, r.bits) && (!best || r.bits > best.bits)) best = r;
  }
  return best?.what;
}

/** One checked allow entry. */
export type AllowEntry =
  | { kind: "host"; name: string }
  | { kind: "suffix"; suffix: string }
  | { kind: "range"; base: AddressBytes; bits: number };

/**
 * Reads one allow entry: `host.name`, `*.domain`, an address, or
 * `address/bits`. Answers a message saying what is wrong otherwise.
 */
export function parseAllowEntry(text: string): AllowEntry | string {
  const s = text.trim().toLowerCase();
  const slash = s.indexOf("/");
  const addr = parseAddress(slash >= 0 ? s.slice(0, slash) : s);
  if (addr) {
    const max = addr.length * 8;
    const bits = slash >= 0 ? s.slice(slash + 1) : String(max);
    if (!/^[0-9]{1,3}$/.test(bits) || Number(bits) > max) {
      return `"${text}": the prefix length must be 0 to ${max}`;
    }
    return { kind: "range", base: addr, bits: Number(bits) };
  }
  const wrong = `"${text}": not a host name, *.domain, address or address/bits`;
  if (slash >= 0) return wrong;
  const label = "[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?";
  const name = new RegExp(`^${label}(?:\\.${label})*\\.?$`);
  if (s.startsWith("*.") && name.test(s.slice(2))) {
    return { kind: "suffix", suffix: s.slice(1).replace(/\.$/, "") };
  }
  if (name.test(s)) return { kind: "host", name: s.replace(/\.$/, "") };
  return wrong;
}

/**
 * True when an entry of `entries` opens `host` (the URL's host name,
 * lower-case) at `address` (what it resolved to). Entries that do not parse
 * open nothing.
 */
export function allowedByEntries(
  entries: readonly string[],
  host: string,
  address: string,
): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  const parsed = parseAddress(address);
  const bytes = parsed ? effectiveAddress(parsed) : undefined;
  for (const text of entries) {
    const e = parseAllowEntry(text);
    if (typeof e === "string") continue;
    if (e.kind === "host" && e.name === name) return true;
    if (e.kind === "suffix" && name.endsWith(e.suffix)) return true;
    if (e.kind === "range" && parsed && bytes) {
      if (samePrefix(parsed, e.base, e.bits) || samePrefix(bytes, e.base, e.bits)) return true;
    }
  }
  return false;
}
