/** A fetch that drops our Accept header, as some reverse proxies do, so Plex falls back to XML. */
export const fetchWithoutAccept: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.delete("accept");
  return fetch(input, { ...init, headers });
};
