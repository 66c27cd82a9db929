import type { FakeArrKind } from "./arr-payloads.js";

/** The connection resources of the fake *arr apps: which event flags each app has, and its schema templates. */

/** The event flags each app's Webhook resource has (the C# NotificationResource classes), all supported. */
export const FLAGS: Record<FakeArrKind, string[]> = {
  sonarr: [
    "onGrab",
    "onDownload",
    "onUpgrade",
    "onImportComplete",
    "onRename",
    "onSeriesAdd",
    "onSeriesDelete",
    "onEpisodeFileDelete",
    "onEpisodeFileDeleteForUpgrade",
    "onHealthIssue",
    "onHealthRestored",
    "onApplicationUpdate",
    "onManualInteractionRequired",
  ],
  radarr: [
    "onGrab",
    "onDownload",
    "onUpgrade",
    "onRename",
    "onMovieAdded",
    "onMovieDelete",
    "onMovieFileDelete",
    "onMovieFileDeleteForUpgrade",
    "onHealthIssue",
    "onHealthRestored",
    "onApplicationUpdate",
    "onManualInteractionRequired",
  ],
  lidarr: [
    "onGrab",
    "onReleaseImport",
    "onUpgrade",
    "onRename",
    "onArtistAdd",
    "onArtistDelete",
    "onAlbumDelete",
    "onHealthIssue",
    "onHealthRestored",
    "onDownloadFailure",
    "onImportFailure",
    "onTrackRetag",
    "onApplicationUpdate",
  ],
  readarr: [
    "onGrab",
    "onReleaseImport",
    "onUpgrade",
    "onRename",
    "onAuthorAdded",
    "onAuthorDelete",
    "onBookDelete",
    "onBookFileDelete",
    "onBookFileDeleteForUpgrade",
    "onHealthIssue",
    "onDownloadFailure",
    "onImportFailure",
    "onBookRetag",
    "onApplicationUpdate",
  ],
};

/**
 * A schema template: every event off, each flag's `supportsOn*` true except
 * the `unsupported` ones (an older version), the settings fields empty
 * (Readarr has no headers).
 */
export function schemaEntry(
  kind: FakeArrKind,
  implementation: "Webhook" | "Discord",
  unsupported: readonly string[] = [],
): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    name: "",
    implementation,
    implementationName: implementation,
    configContract: `${implementation}Settings`,
    infoLink: `https://wiki.servarr.com/${kind}/supported#${implementation.toLowerCase()}`,
    tags: [],
    presets: [],
    includeHealthWarnings: false,
  };
  for (const flag of FLAGS[kind]) {
    entry[flag] = false;
    entry[`supports${flag[0]?.toUpperCase()}${flag.slice(1)}`] = !unsupported.includes(flag);
  }
  const webhookFields = [
    { order: 0, name: "url", label: "Webhook URL", type: "url", value: "" },
    { order: 1, name: "method", label: "Method", type: "select", value: 1 },
    { order: 2, name: "username", label: "Username", type: "textbox", value: "" },
    { order: 3, name: "password", label: "Password", type: "password", value: "", privacy: "password" },
    ...(kind === "readarr" ? [] : [{ order: 4, name: "headers", label: "Headers", type: "keyValueList", value: [] }]),
  ];
  entry.fields = implementation === "Webhook" ? webhookFields : [{ order: 0, name: "webHookUrl", label: "Webhook URL", type: "textbox" }];
  return entry;
}
