/** `GET /v1/health`: liveness, without a credential. */

import { Health } from "@toolhost/protocol/wire";
import type { RouteModule } from "./app.js";
import { ERROR_RESPONSES } from "./error-responses.js";

/** Registers the health route. */
export const healthRoutes: RouteModule = (app) => {
  app.get(
    "/v1/health",
    {
      config: { public: true },
      schema: {
        tags: ["system"],
        summary: "Liveness",
        description: 'Answers `{"status":"ok"}` while the server serves HTTP. Needs no credential.',
        security: [],
        response: { 200: Health, ...ERROR_RESPONSES },
      },
    },
    async () => ({ status: "ok" as const }),
  );
};
