/**
 * The claims a pending answer brought (`?claim=N`), each as its own exact text (pure): the answer is
 * read losslessly, so every claim's arguments keep their big integers and key order, exactly as the
 * claim route would have answered them.
 */

import { compact, isJsonObject, objectGet, parseJson } from "@toolhost/protocol";

/** The compact text of each entry of the answer's `claims` (none when it has no claims). */
export function claimTexts(answerText: string): string[] {
  const answer = parseJson(answerText);
  const claims = isJsonObject(answer) ? objectGet(answer, "claims") : undefined;
  return Array.isArray(claims) ? claims.map((claim) => compact(claim)) : [];
}
