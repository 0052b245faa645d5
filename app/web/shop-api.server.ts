import { createApiRouter, type ApiModule } from "./api-router.server";
import { publishApiOperations } from "./openapi/openapi.server";

/** The shop's JSON API: every `app/routes/api.*.ts`, by its file name's pattern (app/web/api-router.server.ts). */
export const shopApi = createApiRouter(import.meta.glob<ApiModule>("../routes/api.*.ts", { eager: true }));

// The document's own routes are modules of this table: they read it from where it is published.
publishApiOperations(shopApi.operations);
