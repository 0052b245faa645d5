import { createApiRouter, type ApiModule } from "./api-router.server";

/** The shop's JSON API: every `app/routes/api.*.ts`, by its file name's pattern (app/web/api-router.server.ts). */
export const shopApi = createApiRouter(import.meta.glob<ApiModule>("../routes/api.*.ts", { eager: true }));
