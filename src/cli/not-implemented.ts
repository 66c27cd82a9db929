import { UserError } from "../domain.js";

/** Placeholder for a command whose issue has not landed yet. */
export async function run(): Promise<number> {
  throw new UserError("not implemented yet", 1);
}
