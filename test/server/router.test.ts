import { describe, expect, it } from "vitest";
import { allowedMethods, createRouter, routeFor } from "../../src/server/router.js";
import type { Route } from "../../src/server/types.js";

const handler = () => undefined;
const guard = () => undefined;
const served = () => true;

const ROUTES: Route[] = [
  { methods: ["GET", "HEAD"], path: "/health", auth: "none", handler },
  { methods: ["GET", "HEAD"], path: "/:pass", auth: "login", part: "page", handler },
  { methods: ["POST", "PUT"], path: "/:pass", auth: "pass", handler },
  { methods: ["GET"], path: "/:pass/api/queue", auth: "login", part: "api", handler },
  { methods: ["GET", "POST"], path: "/api/:pass", auth: "pass", handler },
  { methods: "*", path: "/triggers/manual", auth: "basic", guard, served, handler },
  { methods: ["POST"], path: "/triggers/a-train/:drive", auth: "basic", guard, served, handler },
  { methods: "*", path: "/triggers/:name", auth: "basic", guard, served, handler },
];

const router = createRouter(ROUTES);
const find = (path: string) => router.find(path.split("/").filter(Boolean));

describe("the route matcher", () => {
  it("matches a pattern and hands over its parameters by name", () => {
    const found = find("/triggers/a-train/0A1B");
    expect(found.routes?.map((r) => r.path)).toEqual(["/triggers/a-train/:drive"]);
    expect(found.params).toEqual({ drive: "0A1B" });
    expect(find("/abc/api/queue").params).toEqual({ pass: "abc" });
    expect(find("/api/abc").routes?.[0]?.path).toBe("/api/:pass");
  });

  it("prefers a literal segment to a parameter at the same place", () => {
    expect(find("/triggers/manual").routes?.[0]?.path).toBe("/triggers/manual");
    expect(find("/triggers/sonarr").params).toEqual({ name: "sonarr" });
    expect(find("/health").routes?.[0]?.path).toBe("/health");
  });

  it("picks the route of a path that takes the method, and lists every method of the path for Allow", () => {
    const routes = find("/abc").routes ?? [];
    expect(routeFor(routes, "GET")?.auth).toBe("login");
    expect(routeFor(routes, "PUT")?.auth).toBe("pass");
    expect(routeFor(routes, "DELETE")).toBeUndefined();
    expect(allowedMethods(routes)).toEqual(["GET", "HEAD", "POST", "PUT"]);
    expect(routeFor(find("/triggers/manual").routes ?? [], "PATCH")?.path).toBe("/triggers/manual");
  });

  it("gives a path that is no route its area's key, so a caller without it learns nothing", () => {
    const underPass = find("/abc/no/such/thing");
    expect(underPass.routes).toBeUndefined();
    expect(underPass.gate?.key).toBe("pass");
    expect(underPass.params).toEqual({ pass: "abc" });
    const underTriggers = find("/triggers/a-train/x/extra");
    expect(underTriggers.routes).toBeUndefined();
    expect(underTriggers.gate).toEqual({ key: "basic", guard, served });
    expect(find("/triggers").gate?.key).toBe("basic");
    expect(find("/health/x").gate?.key).toBe("none");
    expect(find("/").gate).toBeUndefined();
  });

  it("refuses a route list where one path's routes disagree on their key or share a method", () => {
    expect(() =>
      createRouter([
        { methods: ["GET"], path: "/:pass/x", auth: "pass", handler },
        { methods: ["GET"], path: "/:pass/x", auth: "login", part: "data", handler },
      ]),
    ).toThrow(/same method/);
    expect(() =>
      createRouter([
        { methods: ["GET"], path: "/x/:pass", auth: "pass", handler },
        { methods: ["POST"], path: "/x/:pass", auth: "pass", guard, handler },
      ]),
    ).toThrow(/differ/);
    expect(() => createRouter([{ methods: ["GET"], path: "/open", auth: "pass", handler }])).toThrow(/:pass/);
    expect(() => createRouter([{ methods: ["GET"], path: "/:pass/open", auth: "none", handler }])).toThrow(/:pass/);
  });
});
