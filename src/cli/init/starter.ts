// What `init` writes without --from: one server that `check` accepts on any machine with Node (npx finds the
// package when it first runs), and every common setting beside it as a comment to uncomment.

/** The commented starter config; `name` is the file's own name, for the hints in it. */
export function starterConfig(name: string): string {
  return `# mcp-supervisor fleet config. Every key: docs/configuration.md of mcp-supervisor.
# Validate it with:   mcp-supervisor check ${name}
# See its tools with: mcp-supervisor tools ${name}
# Run it with:        mcp-supervisor run ${name}     (or serve, to make the fleet one MCP server)

# supervisor:
#   strategy: one_for_one     # or one_for_all, rest_for_one: who restarts with a failed server
#   separator: "."            # "__" for model APIs that forbid dots in tool names
#   limit: { maxRestarts: 20, window: 60s }

servers:
  # The key is the server id, and the first part of its tool names (everything.echo).
  everything:
    # The reference test server of MCP, fetched by npx on first start. A command is never run through a shell.
    command: npx
    args: ["-y", "@modelcontextprotocol/server-everything"]
    # cwd: ./servers          # relative to this file; default: this file's directory
    # env:                    # on top of HOME LOGNAME PATH SHELL TERM USER
    #   API_TOKEN: "\${API_TOKEN}"   # read from the environment: keep secrets out of this file
    # restart: { policy: on-failure, backoff: { initial: 1s, max: 30s } }
    # timeouts: { startup: 30s, call: 60s, shutdown: 5s }
    # scopes_required: [mcp.read]   # a caller needs these scopes to call its tools

  # A server reached over Streamable HTTP instead of started:
  # remote:
  #   url: https://mcp.example.com/mcp
  #   headers: { Authorization: "Bearer \${REMOTE_TOKEN}" }
`;
}
