import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/**
 * Keeps the shop's outgoing requests (webhooks) out of private networks: a
 * URL is refused when its host is, or resolves to, a loopback, private,
 * link-local, carrier-grade NAT, multicast or otherwise reserved address.
 * It is checked when an endpoint is saved and again, resolved, for every
 * send; the sender then connects to the very address that was checked, so a
 * DNS answer that changes between the check and the connection (rebinding)
 * cannot lead it elsewhere.
 */

/** IPv4 networks no webhook may reach. */
const PRIVATE_V4 = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const;

/** IPv6 networks no webhook may reach, whatever they carry. */
const PRIVATE_V6 = [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b:1::", 48], // NAT64 for a local network's own use (RFC 8215), never a public one
  ["100::", 64],
  ["2001::", 23], // IETF protocol assignments, Teredo's 2001::/32 among them
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const;

/**
 * IPv6 forms that carry an IPv4 address, which a host or a translator on the
 * way turns back into that IPv4 address: each is judged as the address it
 * carries. Given as where the IPv4 address's 32 bits sit (`v4` stands for
 * them), so each private IPv4 network above becomes the IPv6 network of its
 * addresses in that form, and BlockList does all the matching.
 */
const CARRIERS_OF_V4 = [
  ["::v4", 96], // IPv4-compatible (deprecated, RFC 4291)
  ["::ffff:v4", 96], // IPv4-mapped
  ["::ffff:0:v4", 96], // IPv4-translated (SIIT, RFC 2765)
  ["64:ff9b::v4", 96], // NAT64's well-known prefix (RFC 6052)
  ["2002:v4::", 16], // 6to4 (RFC 3056)
] as const;

/** An IPv4 address as the two 16-bit groups of IPv6 text. */
function asIpv6Groups(ipv4: string): string {
  const [a, b, c, d] = ipv4.split(".").map(Number) as [number, number, number, number];
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

// Two lists: one BlockList holding both families matches IPv4 addresses against IPv4-mapped IPv6 rules.
const blockedV4 = new BlockList();
const blockedV6 = new BlockList();
for (const [network, prefix] of PRIVATE_V4) {
  blockedV4.addSubnet(network, prefix, "ipv4");
  for (const [form, carrierPrefix] of CARRIERS_OF_V4) {
    blockedV6.addSubnet(form.replace("v4", asIpv6Groups(network)), carrierPrefix + prefix, "ipv6");
  }
}
for (const [network, prefix] of PRIVATE_V6) {
  blockedV6.addSubnet(network, prefix, "ipv6");
}

/** True for an address no webhook may reach (private, loopback, link-local, reserved). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blockedV4.check(address, "ipv4");
  if (family === 6) return blockedV6.check(address, "ipv6");
  return true;
}

export class AddressRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AddressRefusedError";
  }
}

export interface ResolvedTarget {
  url: URL;
  /** The checked address to connect to, and its family. */
  address: string;
  family: 4 | 6;
}

export interface GuardOptions {
  allowHttp: boolean;
  allowPrivate: boolean;
  /** Stand-in for DNS (tests); default node:dns lookup. */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

const defaultResolve = (host: string) => lookup(host, { all: true, verbatim: true });

/**
 * Checks `rawUrl` and resolves its host: every address the host resolves to
 * must be public (one private answer refuses it all: a resolver may rotate
 * them). Throws AddressRefusedError with a reason an admin understands.
 */
export async function resolvePublicTarget(rawUrl: string, options: GuardOptions): Promise<ResolvedTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new AddressRefusedError("The URL is not an absolute URL");
  }
  if (url.protocol !== "https:" && !(options.allowHttp && url.protocol === "http:")) {
    throw new AddressRefusedError("The URL must start with https://");
  }
  if (url.username || url.password)
    throw new AddressRefusedError("The URL may not carry a user name or password");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let answers: { address: string; family: number }[];
  if (isIP(host)) answers = [{ address: host, family: isIP(host) }];
  else {
    try {
      answers = await (options.resolve ?? defaultResolve)(host);
    } catch {
      throw new AddressRefusedError(`The host ${host} could not be resolved`);
    }
  }
  if (!answers.length) throw new AddressRefusedError(`The host ${host} could not be resolved`);
  if (!options.allowPrivate) {
    const refused = answers.find((answer) => isPrivateAddress(answer.address));
    if (refused) {
      throw new AddressRefusedError(
        `The URL points into a private, loopback or link-local network (${host} is ${refused.address})`,
      );
    }
  }
  const first = answers[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
