import { shopApi } from "~/web/shop-api.server";

/**
 * Every /api URL: the JSON API's modules (`api.*.ts` beside this file) by the API's own table
 * (app/web/api-router.server.ts). Unknown paths reach the not-found module, `api.$.ts`.
 */
export const loader = shopApi.loader;
export const action = shopApi.action;
