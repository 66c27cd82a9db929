import type { PathTrace } from "../../paths/trace.js";
import type { DashboardDeps } from "./deps.js";
import type { DashboardQuery } from "./query.js";
import type { ViewContext } from "./tables.js";

/** Everything one rendering of the dashboard reads: its dependencies, the address's query and the request's view. */
export interface PageInput {
  deps: DashboardDeps;
  query: DashboardQuery;
  params: URLSearchParams;
  view: ViewContext;
  allowManual: boolean;
  trace?: PathTrace;
  /** Who is logged in, when the dashboard has a login: the page offers to log out. */
  user?: string;
}
