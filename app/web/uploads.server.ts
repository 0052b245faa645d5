import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { AppError, badRequest, isAppError } from "~/lib/server/errors.server";
import type { StoredFile } from "~/lib/server/storage.server";
import { MAX_UPLOAD_BYTES, TOO_LARGE_MESSAGE } from "~/lib/shared/uploads";
import { storeImage, type UploadedFile } from "~/services/uploads.server";

/**
 * The multipart forms of the admin's uploads (an image through the API's
 * `upload-image`, the product and feature forms without JavaScript, the
 * catalogue CSV): the body is read here, bounded while it streams in, and the
 * files are handed to the services parsed (services/uploads.server.ts), which
 * never see the request. The field the files travel in is named here, once.
 */

export const UPLOAD_FIELD = "my_file";

/** Text fields are short (the longest is a product description): a bound for the whole form. */
const MAX_TEXT_FIELD_BYTES = 64 * 1024;
const MAX_TEXT_TOTAL_BYTES = 256 * 1024;
/** Room for the boundaries and text fields around the files. */
const requestBound = (maxFiles: number, maxFileBytes: number) =>
  maxFiles * maxFileBytes + MAX_TEXT_TOTAL_BYTES + 64 * 1024;

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
 * unless the form takes several, such as a product's pictures) while it
 * streams in: a file above 5 MB (or the `maxBytes` of a FileLimit) stops the
 * read with 413, other file fields and files beyond `maxFiles` are drained and
 * ignored, text fields are bounded.
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
  const declaredLength = Number(request.headers.get("Content-Length") ?? "0");
  if (Number.isFinite(declaredLength) && declaredLength > requestBound(maxFiles, maxFileBytes))
    throw fileTooLarge();

  const files: UploadedFile[] = [];
  let textBytes = 0;
  const handler: UploadHandler = async ({ name, filename, contentType, data }) => {
    if (typeof filename === "string") {
      const keep = name === UPLOAD_FIELD && files.length < maxFiles;
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of data) {
        if (!keep) continue; // drain what we do not keep
        size += chunk.byteLength;
        if (size > maxFileBytes) throw fileTooLarge();
        chunks.push(chunk);
      }
      // A file input left empty sends a part with no name and no bytes.
      if (keep && (filename !== "" || size > 0)) {
        files.push({ name: filename, type: contentType, bytes: new Uint8Array(Buffer.concat(chunks)) });
      }
      return undefined;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of data) {
      size += chunk.byteLength;
      textBytes += chunk.byteLength;
      if (size > MAX_TEXT_FIELD_BYTES || textBytes > MAX_TEXT_TOTAL_BYTES) {
        throw new AppError(413, "The form is too large");
      }
      chunks.push(chunk);
    }
    return new TextDecoder().decode(Buffer.concat(chunks));
  };

  let fields: FormData;
  try {
    fields = await unstable_parseMultipartFormData(request, handler);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw badRequest("The form data could not be read");
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
