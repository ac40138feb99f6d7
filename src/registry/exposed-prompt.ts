/** One server's prompt under its fleet-wide name. */
export interface ExposedPrompt {
  /** The fleet-wide name: `exposedName(server, prompt, separator)`, as for tools. */
  name: string;
  server: string;
  /** The name the server gave it. */
  prompt: string;
  /** The server's definition as listed (title, description, arguments, icons, `_meta`, …), name included. */
  definition: Readonly<Record<string, unknown>>;
}
