/** One shared drive as Drive's drives.list returns it. */
export interface SharedDrive {
  id: string;
  name: string;
}

export class SharedDrivesError extends Error {
  override name = "SharedDrivesError";
}

/**
 * Lists the account's shared drives with Drive v3 drives.list, 100 per page
 * as rclone asks, following nextPageToken.
 */
export async function listSharedDrives(apiUrl: string, accessToken: string, fetchImpl: typeof fetch = fetch): Promise<SharedDrive[]> {
  const base = apiUrl.endsWith("/") ? apiUrl : `${apiUrl}/`;
  const drives: SharedDrive[] = [];
  let pageToken: string | undefined;
  do {
    const url = new URL("drive/v3/drives", base);
    url.searchParams.set("pageSize", "100");
    if (pageToken) url.searchParams.set("pageToken", pageToken);
    let response: Response;
    try {
      response = await fetchImpl(url, { headers: { authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      throw new SharedDrivesError(`could not reach the Drive API at ${url.origin}: ${(error as Error).message}`);
    }
    if (response.status === 401 || response.status === 403) {
      throw new SharedDrivesError(`the Drive API refused the token (HTTP ${response.status})`);
    }
    if (!response.ok) throw new SharedDrivesError(`the Drive API answered HTTP ${response.status} to drives.list`);
    const body = (await response.json()) as { drives?: unknown; nextPageToken?: unknown };
    for (const drive of Array.isArray(body.drives) ? body.drives : []) {
      const { id, name } = (drive ?? {}) as { id?: unknown; name?: unknown };
      if (typeof id === "string") drives.push({ id, name: typeof name === "string" ? name : id });
    }
    pageToken = typeof body.nextPageToken === "string" && body.nextPageToken !== "" ? body.nextPageToken : undefined;
  } while (pageToken);
  return drives;
}
