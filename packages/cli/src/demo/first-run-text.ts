/**
 * What a newcomer reads on the terminal: how to get a first key on an empty database (`toolhost
 * serve`), and the banner of `npm start` with the console's URL and, once, the demo's admin key.
 */

import { DEMO, type DemoStart } from "./demo-setup.js";

/** The lines `toolhost serve` prints on standard error when the database holds no key yet. */
export function firstKeyHint(consoleUrl: string, databaseOption: string | undefined): string {
  const db = databaseOption === undefined ? "" : ` --db ${databaseOption}`;
  return [
    "toolhost: this database has no API key yet. Create the first one (its secret is printed once):",
    `  npx toolhost keys create${db} --name me --scopes admin`,
    "or start with TOOLHOST_BOOTSTRAP_KEY=<a long random secret>. Then sign in to the console at",
    `  ${consoleUrl}`,
    "(`npm start` seeds a demo with a key instead.)",
    "",
  ].join("\n");
}

/** The banner `toolhost serve --demo` prints once the demo is up (the admin key only when just made). */
export function demoBanner(
  consoleUrl: string,
  demo: DemoStart,
  usesBootstrapKey: boolean,
  databaseOption: string | undefined,
): string {
  const lines = ["", `  Console:    ${consoleUrl}`];
  if (demo.adminKey !== undefined) {
    lines.push(
      `  Admin key:  ${demo.adminKey}`,
      "              shown only this once (stored hashed): paste it into the console's sign-in",
    );
  } else if (usesBootstrapKey) {
    lines.push("  Sign in with your TOOLHOST_BOOTSTRAP_KEY.");
  } else if (demo.plan.action === "reuse") {
    lines.push(
      "  Sign in with the admin key printed when the demo was created.",
      `  Lost it? npx toolhost keys create${databaseOption === undefined ? "" : ` --db ${databaseOption}`} --name console --scopes admin`,
    );
  }
  lines.push("");
  if (demo.plan.action === "leave") {
    lines.push("  This database already holds other configuration: no demo was added.");
  } else {
    lines.push(
      `  The demo: agent "${DEMO.agentName}" (scripted model) with ${DEMO.toolNames.join(" and ")} on binding ${DEMO.bindingId},`,
      "  served by the example executor (examples/task-service) running as a child process.",
    );
    if (demo.firstRun !== undefined) {
      lines.push(`  Its first run ${demo.firstRun.run_id} completed: open 运行 / Runs in the console to see it.`);
    }
  }
  lines.push("  Ctrl-C stops the server and the executor.", "");
  return lines.join("\n");
}
