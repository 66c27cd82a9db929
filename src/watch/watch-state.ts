import type { Logger } from "../lib/logger.js";

export type WatchCondition = "starting" | "ok" | "root-missing" | "root-empty" | "anchors-missing";

const WHY: Record<Exclude<WatchCondition, "ok" | "starting">, string> = {
  "root-missing": "the watched folder is missing (a dropped mount?); recording nothing until it is back",
  "root-empty": "the watched folder is empty (a dropped mount?); recording nothing until it has content again",
  "anchors-missing": "an anchor is missing; recording nothing until it is back",
};

/** A watcher's condition, logged once when it changes rather than on every round. */
export class WatchState {
  condition: WatchCondition = "starting";
  problem: string | undefined;

  constructor(
    private readonly root: string,
    private readonly logger: Logger,
  ) {}

  set(condition: WatchCondition, problem?: string): void {
    if (condition !== this.condition) {
      if (condition === "ok") {
        if (this.condition !== "starting") this.logger.info({ root: this.root }, "watched folder is back; watching again");
      } else if (condition !== "starting") this.logger.warn({ root: this.root }, WHY[condition]);
    }
    if (problem !== undefined && problem !== this.problem)
      this.logger.warn({ root: this.root, problem }, "watched folder partly unreadable");
    this.condition = condition;
    this.problem = problem;
  }
}
