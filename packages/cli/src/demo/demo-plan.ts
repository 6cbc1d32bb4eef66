/**
 * What `npm start` does with the database it finds (pure): reuse the demo it seeded earlier, seed
 * one into an empty database, or leave a database that holds other things alone.
 */

/** What the database holds, as far as the decision goes. */
export interface DemoFacts {
  /** The demo's agent, when an earlier start seeded it. */
  readonly demoAgentId: string | undefined;
  /** Agents or bindings exist (besides the demo's). */
  readonly hasConfiguration: boolean;
  /** Keys exist besides the bootstrap key. */
  readonly hasKeys: boolean;
}

/** The decision. */
export type DemoPlan =
  | { readonly action: "reuse"; readonly agentId: string }
  | { readonly action: "seed" }
  | { readonly action: "leave" };

/** Reuse an existing demo; seed only an empty database; otherwise leave it alone. */
export function planDemo(facts: DemoFacts): DemoPlan {
  if (facts.demoAgentId !== undefined) return { action: "reuse", agentId: facts.demoAgentId };
  if (!facts.hasConfiguration && !facts.hasKeys) return { action: "seed" };
  return { action: "leave" };
}
