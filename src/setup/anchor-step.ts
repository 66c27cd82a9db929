import type { Library } from "../domain.js";
import { anchorsOf } from "../mount/anchors.js";
import { describeAnchorProposal, proposeAnchor } from "../mount/anchor-proposal.js";
import { readMounts } from "../mount/mount-table.js";
import type { SetupContext } from "./context.js";

/**
 * With no anchor configured and the libraries on a FUSE mount, says which
 * anchor to create and set, as doctor's anchors line does. Only said, never
 * written: the file must exist on the drive first, or serve would hold
 * every scan until it does.
 */
export function proposeAnchorStep(ctx: Pick<SetupContext, "say" | "current">, libraries: readonly Library[]): void {
  if (anchorsOf(ctx.current).length > 0) return;
  const proposal = proposeAnchor(
    libraries.flatMap((l) => l.locations),
    ctx.current.SERVER_FILE_EXIST_PATH_MAPPINGS,
    readMounts(),
  );
  if (!proposal) return;
  ctx.say();
  ctx.say(`Anchor: ${describeAnchorProposal(proposal)}.`);
}
