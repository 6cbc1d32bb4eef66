/**
 * Wire schemas of the executor-binding routes (`/v1/executor-bindings`, docs/configuration.md). A binding is a
 * named place where tools execute; its ID is usually chosen by the product and grants nothing. The
 * connection metadata (online executors, last heartbeat) is reported by the binding diagnostics.
 */

import { type Static, Type } from "typebox";
import { Id, Page, StoredText, Timestamp, WireObject } from "./common.js";

/** A name for people, not unique: bindings, toolsets and agents use the same rule. */
export function DisplayName(description: string) {
  return StoredText({ description, minLength: 1, maxLength: 200 });
}

const BINDING_ID = "The binding's ID; tools name it as their `binding_id`.";

/** `POST /v1/executor-bindings`: a new binding; the server makes a `bnd_…` ID when none is given. */
export const CreateBindingRequest = WireObject("A new executor binding.", {
  binding_id: Type.Optional(Id(`${BINDING_ID} Default: a new \`bnd_…\` ID. A taken ID answers 409 \`conflict\`.`)),
  name: DisplayName("A label for people; not unique."),
});

/** `POST /v1/executor-bindings` body. */
export type CreateBindingRequest = Static<typeof CreateBindingRequest>;

/** An executor binding. */
export const Binding = WireObject("An executor binding: a named place where tools execute.", {
  binding_id: Id(BINDING_ID),
  name: DisplayName("A label for people; not unique."),
  created_at: Timestamp("When the binding was registered."),
});

/** An executor binding. */
export type Binding = Static<typeof Binding>;

/** `GET /v1/executor-bindings` answer: bindings in the credential's binding scope, in creation order. */
export const BindingList = Page("Executor bindings in creation order.", Binding);

/** `GET /v1/executor-bindings` answer. */
export type BindingList = Static<typeof BindingList>;

/** Path parameters of `/v1/executor-bindings/{binding_id}`. */
export const BindingIdParams = WireObject("Names one executor binding.", { binding_id: Id(BINDING_ID) });

/** Path parameters of `/v1/executor-bindings/{binding_id}`. */
export type BindingIdParams = Static<typeof BindingIdParams>;
