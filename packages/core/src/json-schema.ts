/** A JSON Schema object, as providers take it for a tool's parameters. */
export type JsonSchema = { readonly [key: string]: unknown };
