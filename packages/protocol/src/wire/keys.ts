/** Wire schemas of the API-key routes (`/v1/keys`) and of credential scopes (docs/security.md). */

import { type Static, Type } from "typebox";
import { CONNECTION_ID_PATTERN, MAX_CONNECTIONS } from "../config/model-connection.js";
import { Id, Nullable, Page, StoredText, Timestamp, WireObject } from "./common.js";

/** Every credential scope, in the order they are documented. */
export const SCOPE_NAMES = [
  "configuration:read",
  "configuration:write",
  "runtime:read",
  "runtime:write",
  "executors:connect",
  "tools:execute",
  "metrics:read",
  "admin",
] as const;

/** One credential scope. */
export const ScopeName = Type.Enum(SCOPE_NAMES, {
  description: "A credential scope; `admin` satisfies every other scope.",
});

/** One credential scope. */
export type ScopeName = Static<typeof ScopeName>;

/** An agent or binding scope: every ID (`"*"`) or a list of IDs. */
export function IdScope(description: string) {
  return Type.Union(
    [
      Type.Literal("*", { description: "Every ID, present and future." }),
      Type.Array(Id("An ID inside the scope."), { uniqueItems: true, maxItems: 1000, description: "These IDs only." }),
    ],
    { description },
  );
}

/** An agent or binding scope: `"*"` or a list of IDs. */
export type IdScope = Static<ReturnType<typeof IdScope>>;

/** A model connection scope: every connection the operator declares (`"*"`) or a list of connection IDs. */
export function ConnectionScope(description: string) {
  return Type.Union(
    [
      Type.Literal("*", { description: "Every model connection, present and future." }),
      Type.Array(Type.String({ description: "A model connection ID.", pattern: CONNECTION_ID_PATTERN.source }), {
        uniqueItems: true,
        maxItems: MAX_CONNECTIONS,
        description: "These connections only.",
      }),
    ],
    { description },
  );
}

const KEY_NAME = StoredText({ description: "A label for people; not unique.", minLength: 1, maxLength: 200 });
const SCOPES = Type.Array(ScopeName, {
  description: "What the key may do.",
  minItems: 1,
  uniqueItems: true,
});
const AGENTS = "The agents whose objects the key reaches; others answer 404.";
const BINDINGS = "The executor bindings whose objects the key reaches; others answer 404.";
const CONNECTIONS =
  "The operator's model connections the key's agent versions may name; others answer 422 at `/model/connection`, like unknown ones.";

/** `POST /v1/keys`: a new key. `agents`, `bindings` and `connections` default to the creating key's own. */
export const CreateKeyRequest = WireObject("A new API key; it grants no more than the key that creates it.", {
  name: KEY_NAME,
  scopes: SCOPES,
  agents: Type.Optional(IdScope(`${AGENTS} Default: the creating key's agents.`)),
  bindings: Type.Optional(IdScope(`${BINDINGS} Default: the creating key's bindings.`)),
  connections: Type.Optional(ConnectionScope(`${CONNECTIONS} Default: the creating key's connections.`)),
});

/** `POST /v1/keys` body. */
export type CreateKeyRequest = Static<typeof CreateKeyRequest>;

const keyMembers = {
  key_id: Id("The key's ID (not its secret)."),
  name: KEY_NAME,
  scopes: SCOPES,
  agents: IdScope(AGENTS),
  bindings: IdScope(BINDINGS),
  connections: ConnectionScope(CONNECTIONS),
  created_at: Timestamp("When the key was created."),
};

/** `POST /v1/keys` answer: the only time the secret is shown. */
export const CreatedKey = WireObject("A created API key, with its secret.", {
  ...keyMembers,
  key: Type.String({ description: "The secret, for `Authorization: Bearer <key>`; shown only here." }),
});

/** `POST /v1/keys` answer. */
export type CreatedKey = Static<typeof CreatedKey>;

/** A key as listed: never its secret or hash. */
export const KeyInfo = WireObject("An API key (never its secret).", {
  ...keyMembers,
  revoked_at: Nullable(Timestamp("When the key was revoked."), "When the key was revoked; null while active."),
});

/** A key as listed. */
export type KeyInfo = Static<typeof KeyInfo>;

/** `GET /v1/keys` answer: keys in creation order, revoked ones included. */
export const KeyList = Page("API keys in creation order.", KeyInfo);

/** `GET /v1/keys` answer. */
export type KeyList = Static<typeof KeyList>;

/** Path parameters of `/v1/keys/{key_id}`. */
export const KeyIdParams = WireObject("Names one API key.", { key_id: Id("The key's ID.") });

/** Path parameters of `/v1/keys/{key_id}`. */
export type KeyIdParams = Static<typeof KeyIdParams>;

/** `DELETE /v1/keys/{key_id}` answer. Revoking again answers the first revocation time. */
export const RevokedKey = WireObject("A revoked API key.", {
  key_id: Id("The key's ID."),
  revoked: Type.Literal(true, { description: "Always true." }),
  revoked_at: Timestamp("When the key was (first) revoked."),
});

/** `DELETE /v1/keys/{key_id}` answer. */
export type RevokedKey = Static<typeof RevokedKey>;
