import { Buffer } from "node:buffer";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server for the tests (smtp-server, from nodemailer's project)
 * and a small reader for the messages it receives: headers, and the text and
 * HTML parts decoded from quoted-printable or base64.
 */

export interface ReceivedMail {
  raw: string;
  headers: Record<string, string>;
  to: string;
  subject: string;
  messageId: string;
  text: string;
  html: string;
}

function splitHeadersAndBody(raw: string): { headers: Record<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  const head = match ? raw.slice(0, match.index) : raw;
  const body = match ? raw.slice(match.index + match[0].length) : "";
  const headers: Record<string, string> = {};
  // Unfold continuation lines, then read "Name: value".
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

function decodePart(headers: Record<string, string>, body: string): string {
  const encoding = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body);
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

export function parseMail(raw: string): ReceivedMail {
  const { headers, body } = splitHeadersAndBody(raw);
  let text = "";
  let html = "";
  const contentType = headers["content-type"] ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  const parts = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1)
        .filter((part) => !part.startsWith("--"))
        .map((part) => splitHeadersAndBody(part.replace(/^\r?\n/, "")))
    : [{ headers, body }];
  for (const part of parts) {
    const type = (part.headers["content-type"] ?? "text/plain").toLowerCase();
    const decoded = decodePart(part.headers, part.body).replace(/\r\n/g, "\n").trimEnd();
    if (type.startsWith("text/html")) html = decoded;
    else if (type.startsWith("text/plain")) text = decoded;
  }
  return {
    raw,
    headers,
    to: headers.to ?? "",
    subject: headers.subject ?? "",
    messageId: headers["message-id"] ?? "",
    text,
    html,
  };
}

/** The reset link of a password reset mail. */
export function resetLinkIn(mail: { text: string }): string {
  const link = /https?:\/\/\S+\/auth\/reset-password\?token=[\w-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`No reset link in:\n${mail.text}`);
  return link;
}

export interface TestSmtpServer {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Stops accepting connections (the port stays ours for `start`). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Resolves when `count` mails have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
}

/** Listens on `port` (0: one the system chooses). */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const create = () =>
    new SMTPServer({
      authOptional: true,
      // Plain SMTP on localhost: nodemailer would refuse the self-signed STARTTLS certificate.
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          received.push(parseMail(Buffer.concat(chunks).toString("utf8")));
          callback();
        });
      },
    });
  let server = create();
  const listen = (at: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(at, "127.0.0.1", () => resolve((server.server.address() as AddressInfo).port));
    });
  const listening = await listen(port);
  return {
    port: listening,
    url: `smtp://127.0.0.1:${listening}`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    async start() {
      server = create();
      await listen(listening);
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`Expected ${count} mails, got ${received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return received;
    },
  };
}
