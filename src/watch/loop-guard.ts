import { realpath, stat } from "node:fs/promises";
import path from "node:path";

/** A folder's identity: the same folder reached by two paths has the same one. */
export function identityOf(info: { dev: number; ino: number }): string {
  return `${info.dev}:${info.ino}`;
}

/**
 * The identities of the watched folder's ancestors, `/` included: a bind
 * mount or a symlink that leads back to one of them would walk the tree
 * again from above, so the walk treats them as already seen.
 */
export async function ancestorIdentities(rootReal: string): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  for (let dir = path.dirname(rootReal); ; dir = path.dirname(dir)) {
    const info = await stat(dir).catch(() => undefined);
    if (info) seen.set(identityOf(info), dir);
    if (dir === path.dirname(dir)) return seen;
  }
}

/**
 * Why a symlinked folder is not followed, or undefined to follow it. A link
 * to a folder outside the watched tree is followed (once: the walk's identity
 * check stops a second way in); a link back into the tree is not, since that
 * folder is watched under its own path, and a link to a folder that holds the
 * tree is a loop.
 */
export async function refuseLink(link: string, rootReal: string): Promise<string | undefined> {
  let target: string;
  try {
    target = await realpath(link);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ELOOP" ? "a symlink loop: the link leads back to itself" : undefined;
  }
  const where = await realpath(path.dirname(link)).catch(() => path.dirname(link));
  if (isInside(where, target)) return `a symlink loop: it leads back to ${target}, a folder it is in`;
  if (isInside(rootReal, target)) return `a symlink loop: it leads to ${target}, which holds the watched folder`;
  if (isInside(target, rootReal)) return `it leads to ${target}, inside the watched folder, which is watched under its own path`;
  return undefined;
}

/** `child` is `parent` or inside it, comparing whole path components. */
export function isInside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
}
