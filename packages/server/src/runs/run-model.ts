/**
 * The model a run's agent version names, read from its stored settings: the built-in scripted model
 * (answered synchronously, inside the transaction that starts the turn) or a provider reached over
 * HTTP through one of the operator's model connections (answered by the run driver, outside any
 * transaction). Versions stored before model connections named an endpoint and a key themselves;
 * they still read as versions, but their runs fail `model_error` saying they name no connection.
 */

import {
  type ModelConnections,
  type ProviderModelSettings,
  parseJson,
  validateModelSettings,
} from "@toolhost/protocol";
import type { RunFailure } from "../models/model-turn.js";
import type { NamedConnection } from "../models/provider-client.js";
import { MODEL_ERROR, undecidedTurn } from "./decided-turn.js";
import { readScriptedModel, type ScriptedModel } from "./scripted-turn.js";

/** A run's model. */
export type RunModel =
  | { kind: "scripted"; scripted: ScriptedModel }
  | { kind: "provider"; settings: ProviderModelSettings }
  /** Stored settings that no longer read (a bug, or a database edited by hand): the turn fails the run. */
  | { kind: "unreadable"; failure: RunFailure };

/** The provider and model name requests are recorded (and calibrated) under, and the connection they went through. */
export interface ModelIdentity {
  provider: string;
  model: string;
  /** The model connection's ID; the provider's name for the scripted model (it needs none). */
  connection: string;
}

/** The run failure of a version stored with `base_url`/`api_key_env` instead of a connection. */
export const NO_CONNECTION_FAILURE: RunFailure = {
  code: MODEL_ERROR,
  message:
    'this agent version names no model connection (it was published with base_url/api_key_env, which the server no longer reads): publish a new version whose model names one of the server\'s model connections in "connection"',
};

/** Reads stored model settings (`agent_versions.model_json`); settings that do not read are `unreadable`. */
export function readRunModel(modelJson: string): RunModel {
  try {
    return readModelSettings(modelJson);
  } catch (error) {
    return { kind: "unreadable", failure: namesNoConnection(modelJson) ? NO_CONNECTION_FAILURE : undecidedTurn(error) };
  }
}

/** True for stored HTTP provider settings without a `connection` (published before model connections). */
function namesNoConnection(modelJson: string): boolean {
  try {
    const settings: unknown = JSON.parse(modelJson);
    if (typeof settings !== "object" || settings === null) return false;
    const provider = (settings as { provider?: unknown }).provider;
    return (provider === "openai" || provider === "anthropic") && !Object.hasOwn(settings, "connection");
  } catch {
    return false;
  }
}

function readModelSettings(modelJson: string): RunModel {
  if (modelJson.startsWith('{"provider":"scripted"'))
    return { kind: "scripted", scripted: readScriptedModel(modelJson) };
  const settings = validateModelSettings(parseJson(modelJson));
  if (settings.provider === "scripted") return { kind: "scripted", scripted: readScriptedModel(modelJson) };
  return { kind: "provider", settings };
}

/** Who answers: the provider and model name. */
export function identityOf(model: RunModel): ModelIdentity {
  return model.kind === "provider"
    ? { provider: model.settings.provider, model: model.settings.model, connection: model.settings.connection }
    : { provider: model.kind, model: model.kind, connection: model.kind };
}

/** Output tokens a request of `model` reserves in the window (the scripted model writes nothing counted). */
export function maxOutputTokensOf(model: RunModel): number {
  return model.kind === "provider" ? model.settings.max_output_tokens : 0;
}

/**
 * The declared connection `settings` name, or the run's failure when the server no longer declares it
 * (or it now serves another provider): the operator changed `TOOLHOST_MODEL_CONNECTIONS` after the
 * version was published.
 */
export function connectionOf(
  settings: ProviderModelSettings,
  connections: ModelConnections,
): { connection: NamedConnection } | { failure: RunFailure } {
  const id = settings.connection;
  const connection = connections.get(id);
  if (connection === undefined) {
    return {
      failure: {
        code: MODEL_ERROR,
        message: `model connection ${JSON.stringify(id)} is not declared on this server (TOOLHOST_MODEL_CONNECTIONS)`,
      },
    };
  }
  if (connection.provider !== settings.provider) {
    return {
      failure: {
        code: MODEL_ERROR,
        message: `model connection ${JSON.stringify(id)} serves ${connection.provider}, not ${settings.provider}`,
      },
    };
  }
  return { connection: { id, ...connection } };
}
