import { apiError } from "~/web/api.server";

// Every /api path that no resource route claims: JSON 404 for any method.
const notFound = ({ request }: { request: Request }) =>
  apiError(404, `No API endpoint at ${request.method} ${new URL(request.url).pathname}`);

export const loader = notFound;
export const action = notFound;
