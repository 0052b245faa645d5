import { BODY_LIMIT_BYTES, BODY_TOO_LARGE_MESSAGE } from "~/lib/server/body-limits.server";
import { AppError } from "~/lib/server/errors.server";

/**
 * Request bodies, read once and bounded (docs/architecture.md, rule 10). The bound is the reading route's own
 * (app/lib/server/body-limits.server.ts): a declared length above it is refused before a byte is read, a body
 * without one (chunked) is counted while it streams and refused the moment it passes the bound, so memory
 * never holds more than the bound.
 */

export const FORM_TYPES_MESSAGE =
  "This form accepts application/x-www-form-urlencoded or multipart/form-data bodies only.";
export const NO_BOUNDARY_MESSAGE = "The form could not be read: multipart/form-data needs a boundary.";
export const UNREADABLE_FORM_MESSAGE = "The form could not be read. Please send it again from the page.";

/** What is read and thrown away after a 413 so that a client still sending sees the answer, at most. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const DRAIN_TIMEOUT_MS = 10_000;

/** A body above its route's bound. */
export class BodyTooLargeError extends AppError {
  constructor() {
    super(413, BODY_TOO_LARGE_MESSAGE);
  }
}

/**
 * Reads what is left of a refused body and throws it away, as Express's finalhandler does: a client still
 * sending would otherwise meet a full socket instead of the answer. After 64 MB or 10 s the body is cancelled.
 */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>) {
  let drained = 0;
  const timer = setTimeout(() => void reader.cancel().catch(() => undefined), DRAIN_TIMEOUT_MS);
  timer.unref();
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        drained += value.byteLength;
        if (drained > DRAIN_LIMIT_BYTES) {
          await reader.cancel();
          break;
        }
      }
    } catch {
      // The client went away: nothing left to drain.
    } finally {
      clearTimeout(timer);
    }
  })();
}

/** The whole body, at most `maxBytes` of it; BodyTooLargeError (413) above. */
export async function readBodyBytes(
  request: Request,
  maxBytes: number = BODY_LIMIT_BYTES,
): Promise<Uint8Array> {
  const declared = Number(request.headers.get("Content-Length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) {
    if (request.body) discardRest(request.body.getReader());
    throw new BodyTooLargeError();
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      discardRest(reader);
      throw new BodyTooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The body as text, at most `maxBytes` of it. */
export async function readBodyText(request: Request, maxBytes: number = BODY_LIMIT_BYTES): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request, maxBytes));
}

function statusResponse(status: number, message: string): Response {
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** 415 or 400 for a body that is not a form; null when it is one. */
export function formContentTypeProblem(request: Request): Response | null {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (/^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)) return null;
  if (/^multipart\/form-data\s*(;|$)/i.test(contentType)) {
    return /;\s*boundary=("?)[^";]+\1/i.test(contentType) ? null : statusResponse(400, NO_BOUNDARY_MESSAGE);
  }
  return statusResponse(415, FORM_TYPES_MESSAGE);
}

/**
 * A page action's form. What a browser cannot have sent is answered as it deserves, never with a 500: a body
 * that is not a form 415, a multipart body without its boundary or one that does not parse 400, a body above
 * `maxBytes` (1 MB unless the page takes files) 413. These are thrown as responses: the page shows the status
 * page with the message.
 */
export async function readForm(
  request: Request,
  { maxBytes = BODY_LIMIT_BYTES }: { maxBytes?: number } = {},
): Promise<FormData> {
  const problem = formContentTypeProblem(request);
  if (problem) throw problem;
  let bytes: Uint8Array;
  try {
    bytes = await readBodyBytes(request, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw statusResponse(413, error.message);
    throw error;
  }
  return parseForm(bytes, request.headers.get("Content-Type") ?? "");
}

/** A form body already read, parsed as its content type says; 400 when it does not parse. */
export async function parseForm(bytes: Uint8Array, contentType: string): Promise<FormData> {
  try {
    return await new Response(Buffer.from(bytes), { headers: { "Content-Type": contentType } }).formData();
  } catch {
    throw statusResponse(400, UNREADABLE_FORM_MESSAGE);
  }
}
