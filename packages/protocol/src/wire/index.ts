/**
 * @toolhost/protocol/wire — the HTTP wire schemas, declared once in TypeBox. The server validates
 * requests and generates its OpenAPI document from them; clients get the derived TypeScript types.
 * One file per API area; `common.ts` holds the building blocks and explains the pattern.
 */

export {
  AnyObject,
  ID_MAX_LENGTH,
  ID_PATTERN,
  Id,
  Nullable,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  Page,
  PageQuery,
  Timestamp,
  WireObject,
} from "./common.js";
export { ErrorBody, ErrorDetail } from "./errors.js";
export { Health } from "./health.js";
export {
  CreatedKey,
  CreateKeyRequest,
  IdScope,
  KeyIdParams,
  KeyInfo,
  KeyList,
  RevokedKey,
  SCOPE_NAMES,
  ScopeName,
} from "./keys.js";
