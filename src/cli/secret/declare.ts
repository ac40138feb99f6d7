// biome-ignore-all lint/suspicious/noTemplateCurlyInString: help text names ${keyring:…} references literally
import type { Command } from 'commander';

/** Declares `secret` and its subcommands on the program; each action stores its exit code through `setCode`. */
export function declareSecretCommands(program: Command, setCode: (code: number) => void): void {
  const secret = program
    .command('secret')
    .description('manage secrets in the OS keyring, which a config names as ${keyring:SERVICE/ACCOUNT}');
  secret
    .command('set')
    .description(
      'store a value in the OS keyring: read from stdin (one trailing newline dropped), or typed unseen on a terminal',
    )
    .argument('<service/account>', 'the item, as ${keyring:SERVICE/ACCOUNT} names it')
    .action(async (name: string) => setCode(await (await import('./command.js')).secretSetCommand(name)));
  secret
    .command('delete')
    .description('delete an item from the OS keyring')
    .argument('<service/account>', 'the item, as ${keyring:SERVICE/ACCOUNT} names it')
    .action(async (name: string) => setCode(await (await import('./command.js')).secretDeleteCommand(name)));
  secret
    .command('list')
    .description('list the secret references a config names and whether each can be read now (never a value)')
    .argument('<config>', 'fleet config (YAML, or JSON with mcpServers)')
    .option('--json', 'print the references as JSON on stdout instead of a table')
    .action(async (config: string, flags: { json?: boolean }) =>
      setCode(await (await import('./list.js')).secretListCommand(config, flags)),
    );
}
