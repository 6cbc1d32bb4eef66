/** The generated module's text for `document` (the parsed OpenAPI document). */
export function openapiTypes(document: unknown): Promise<string>;
