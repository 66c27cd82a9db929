import { compatRoutes } from "./compat/routes.js";
import { dashboardRoutes } from "./dashboard/routes.js";
import { healthRoutes } from "./health-route.js";
import { loginRoutes } from "./login/routes.js";
import { metricsRoutes } from "./metrics-route.js";
import { serviceRoutes } from "./routes.js";
import type { Route } from "./types.js";

/**
 * Every URL the service answers, and who may call it: the source of the
 * routes table in docs/running.md (test/server/route-list.test.ts keeps the
 * two in step). Each area lists its own routes; app.ts serves them all
 * through one matcher (dispatch.ts).
 */
export const ROUTES: readonly Route[] = [
  ...healthRoutes,
  ...metricsRoutes,
  ...serviceRoutes,
  ...loginRoutes,
  ...dashboardRoutes,
  ...compatRoutes,
];
