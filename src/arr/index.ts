export { recogniseArr, arrBaseUrl, type ArrApp, type ArrCallOptions, type RecogniseOptions } from "./client.js";
export { readArrLibrary, DEFAULT_ITEM_SAMPLE, type ArrLibrary, type ReadLibraryOptions } from "./library.js";
export {
  connectArr,
  listArrConnections,
  ArrTestFailedError,
  type ArrConnection,
  type ConnectOptions,
  type ConnectResult,
} from "./connect.js";
export { ARR_KINDS, ARR_KIND_INFO, isArrKind, type ArrKind, type ArrKindInfo } from "./kinds.js";
export { DEFAULT_CONNECTION_NAME } from "./webhook-resource.js";
