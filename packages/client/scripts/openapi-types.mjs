/**
 * The TypeScript types of the toolhost API, generated from its OpenAPI document with
 * openapi-typescript. Used by `generate.mjs` and by the test that fails when the committed types
 * are stale.
 */

import openapiTS, { astToString } from "openapi-typescript";

/** The header of the generated file. */
const HEADER = `/**
 * The toolhost API's types (paths, operations, components), generated from its OpenAPI document by
 * openapi-typescript: \`npm run generate -w @toolhost/client\`. Do not edit by hand.
 */

`;

/** The generated module's text for `document` (the parsed OpenAPI document). */
export async function openapiTypes(document) {
  const ast = await openapiTS(structuredClone(document), { alphabetize: false, defaultNonNullable: false });
  return HEADER + astToString(ast);
}
