/**
 * Extensions of files a media library holds: video, audio, subtitles, images,
 * metadata, books and partial downloads. A last path component ending in one
 * of these is a file; anything else (`Movie.2010.1080p`) is taken as a folder.
 */
const VIDEO =
  "3g2 3gp amv asf avi divx drc dv f4a f4b f4p f4v flv gifv iso img m2t m2ts m2v m4p m4v mk3d mkv mng mov mp2 mp4 mpe mpeg mpg mpv mts mxf nsv ogm ogv qt rm rmvb roq svi tp trp ts vob webm wmv wtv y4m yuv";
const AUDIO = "aac aif aiff alac ape au dff dsf flac m4a m4b m4r mka mp3 mpc oga ogg opus ra wav wma wv";
const SUBTITLE = "ass idx smi srt ssa sub sup ttml vtt";
const IMAGE = "bmp gif jpeg jpg png tbn tiff webp";
const META = "cue log m3u m3u8 nfo nzb sfv txt xml";
const BOOK = "azw azw3 cb7 cbr cbt cbz djvu epub fb2 kepub lit mobi pdf";
const PARTIAL = "!qb bak part partial tmp";

/** Video files: what a media server holds as an item of its own (sidecars attach to these). */
export const VIDEO_EXTENSIONS: ReadonlySet<string> = new Set(VIDEO.split(" "));

/** Subtitle files (sidecars of the video whose name they start with). */
export const SUBTITLE_EXTENSIONS: ReadonlySet<string> = new Set(SUBTITLE.split(" "));

/** Image files (artwork sidecars). */
export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(IMAGE.split(" "));

export const KNOWN_FILE_EXTENSIONS: ReadonlySet<string> = new Set(
  [VIDEO, AUDIO, SUBTITLE, IMAGE, META, BOOK, PARTIAL].join(" ").split(" "),
);

/** The extension of a file name, lower-cased and without the dot, or "". */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  if (dot <= 0 || dot === name.length - 1) return "";
  return name.slice(dot + 1).toLowerCase();
}
