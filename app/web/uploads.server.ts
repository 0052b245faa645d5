import {
  MAX_TEXT_FIELD_BYTES,
  MAX_TEXT_TOTAL_BYTES,
  multipartBodyLimit,
} from "~/lib/server/body-limits.server";
import { BodyTooLargeError, readBodyBytes } from "~/lib/server/request-body.server";
import { AppError, badRequest, isAppError } from "~/lib/server/errors.server";
import type { StoredFile } from "~/lib/server/storage.server";
import { MAX_UPLOAD_BYTES, TOO_LARGE_MESSAGE } from "~/lib/shared/uploads";
import { storeImage, type UploadedFile } from "~/services/uploads.server";

/**
 * The multipart forms of the admin's uploads (an image through the API's
 * `upload-image`, the product and feature forms without JavaScript, the
 * catalogue CSV): the body is read here, bounded while it streams in
 * (lib/server/request-body.server.ts), and the
 * files are handed to the services parsed (services/uploads.server.ts), which
 * never see the request. The field the files travel in is named here, once.
 */

export const UPLOAD_FIELD = "my_file";

/** A refusal of the uploaded file, told at the form's file field. */
const atUploadField = (status: number, message: string, headers?: Record<string, string>) =>
  new AppError(status, message, { [UPLOAD_FIELD]: [message] }, headers);

export interface MultipartForm {
  /** The text fields. */
  fields: FormData;
  /** The file of the `my_file` field, or null when none was chosen. */
  file: UploadedFile | null;
  /** Every file of the `my_file` field, in order (at most `maxFiles`). */
  files: UploadedFile[];
}

export function isMultipart(request: Request): boolean {
  return /^multipart\/form-data\s*;/i.test(request.headers.get("Content-Type") ?? "");
}

/** A file bound other than the image's 5 MB (the catalogue's CSV import), with its own 413 message. */
export interface FileLimit {
  maxBytes: number;
  message: string;
}

/**
 * Reads a multipart form with at most `maxFiles` files (field my_file; one
 * unless the form takes several, such as a product's pictures): the body is
 * bounded by what that many files and the text fields can take (413 above), a
 * file above 5 MB (or the `maxBytes` of a FileLimit) is refused with 413, other
 * file fields and files beyond `maxFiles` are ignored, text fields are bounded.
 */
export async function readMultipartForm(
  request: Request,
  options: { maxFiles?: number } & Partial<FileLimit> = {},
): Promise<MultipartForm> {
  const maxFiles = options.maxFiles ?? 1;
  const maxFileBytes = options.maxBytes ?? MAX_UPLOAD_BYTES;
  const fileTooLarge = () => atUploadField(413, options.message ?? TOO_LARGE_MESSAGE);
  if (!isMultipart(request)) {
    throw new AppError(415, `Send the file as multipart/form-data in the field ${UPLOAD_FIELD}`);
  }
  let bytes: Uint8Array;
  try {
    bytes = await readBodyBytes(request, multipartBodyLimit(maxFiles, maxFileBytes));
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw fileTooLarge();
    throw error;
  }
  let parsed: FormData;
  try {
    parsed = await new Response(Buffer.from(bytes), {
      headers: { "Content-Type": request.headers.get("Content-Type") ?? "" },
    }).formData();
  } catch {
    throw badRequest("The form data could not be read");
  }
  const fields = new FormData();
  const files: UploadedFile[] = [];
  let textBytes = 0;
  for (const [name, value] of parsed) {
    if (typeof value !== "string") {
      // Other file fields and files beyond `maxFiles` are ignored; a file input left empty sends no bytes.
      if (name !== UPLOAD_FIELD || files.length >= maxFiles || (value.name === "" && value.size === 0))
        continue;
      if (value.size > maxFileBytes) throw fileTooLarge();
      files.push({ name: value.name, type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) });
      continue;
    }
    const size = Buffer.byteLength(value);
    textBytes += size;
    if (size > MAX_TEXT_FIELD_BYTES || textBytes > MAX_TEXT_TOTAL_BYTES) {
      throw new AppError(413, "The form is too large");
    }
    fields.append(name, value);
  }
  return { fields, file: files[0] ?? null, files };
}

/** Stores an image of the form (services/uploads.server.ts); its refusal is told at the file field. */
export async function storeUploadedImage(file: UploadedFile): Promise<StoredFile> {
  try {
    return await storeImage(file);
  } catch (error) {
    if (isAppError(error)) throw atUploadField(error.status, error.message, error.headers);
    throw error;
  }
}
