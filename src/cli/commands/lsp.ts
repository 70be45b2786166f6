import { parseCommandLine } from '../args.js';
import { type Command, UsageError } from '../command.js';

const lspOptions = {
  stdio: { type: 'boolean' },
  clientProcessId: { type: 'string' },
} as const;

export const lspCommand: Command = {
  name: 'lsp',
  options: lspOptions,
  help: `Usage: cfrules lsp [--stdio]

Runs a Language Server Protocol server on standard input and output, for
editors: diagnostics with Cloudflare's error text and the lints, completion of
fields, functions, operators and known values, hover documentation, signature
help, formatting, quick fixes and semantic tokens (see docs/editors.md).

It reads .cfrules files (one expression per line, # comments, or one
expression over several lines), JSON rules files as the Cloudflare API
returns them (filters, firewall rules, rulesets), where each expression
string is checked, and Terraform files (.tf), where each expression of a
cloudflare_ruleset rule or a cloudflare_filter is checked for the
resource's phase.

Settings (workspace configuration, section cfrules):
  cfrules.plan     the zone's plan: free, pro, business or enterprise
  cfrules.phase    where the expressions run, e.g. http_request_firewall_custom
                   or firewall_rules; the phase a JSON ruleset or a Terraform
                   resource states wins

Options:
      --stdio                 talk over standard input and output (the default;
                              accepted because editors pass it)
      --clientProcessId PID   accepted for editors that pass it; the server
                              stops when the editor that started it exits
  -h, --help                  show this help

The server runs until the editor sends exit, or closes its standard input.
`,
  async run(args) {
    const { positionals } = parseCommandLine(args, lspOptions);
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const { startStdioServer } = await import('../../lsp/server.js');
    await startStdioServer();
    // The connection keeps the process alive; vscode-languageserver ends it on `exit`.
    return new Promise<number>(() => {});
  },
};
