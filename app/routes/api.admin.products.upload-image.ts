import { z } from "zod";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { badRequest } from "~/lib/server/errors.server";
import { publicImageUrl } from "~/lib/server/public-url.server";
import { readMultipartForm, UPLOAD_FIELD, storeUploadedImage } from "~/web/uploads.server";
import { UPLOAD_BODY_LIMIT_BYTES } from "~/lib/server/body-limits.server";

// POST multipart with one file in my_file → { success, message, result: { url } } (an absolute URL).
const route = apiRoute(
  {
    POST: apiOperation({
      tag: "Admin",
      summary: "Upload an image (field my_file, at most 5 MB)",
      access: "products",
      multipart: true,
      body: z.object({
        my_file: z.string().meta({ format: "binary", description: "jpg, png, gif, webp, svg or bmp" }),
      }),
      success: {
        201: {
          description: "Stored; use result.url as a product's or feature's image",
          schema: z.object({
            success: z.literal(true),
            message: z.string(),
            result: z.object({ url: z.string().meta({ format: "uri" }) }),
          }),
        },
      },
      errors: { 400: "No file, or not an image", 413: "Larger than 5 MB" },
      handler: async ({ request }) => {
        const { file } = await readMultipartForm(request);
        if (!file) {
          throw badRequest("Choose an image to upload", { [UPLOAD_FIELD]: ["Choose an image to upload"] });
        }
        const stored = await storeUploadedImage(file);
        return apiJson(
          {
            success: true,
            message: "Image uploaded successfully",
            result: { url: publicImageUrl(stored.url) },
          },
          { status: 201 },
        );
      },
    }),
  },
  // This module takes files: larger bodies than the 1 MB of other routes.
  { bodyLimit: UPLOAD_BODY_LIMIT_BYTES },
);
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
