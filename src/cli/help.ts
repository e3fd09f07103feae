/**
 * The text of `xcsh --help` and of each subcommand's `--help`.
 *
 * @module
 */

export const MAIN_HELP = `xcsh — find coding-agent definitions and run them as subagents

Usage:
  xcsh agents [--all] [--json] [--cwd DIR]   list agents, where each came from, what shadows what
  xcsh agents show NAME [--json]             one agent in full
  xcsh agents check [PATH...]                validate agent files (exit 1 on errors)
  xcsh commands [show NAME] [--json]         workflow commands
  xcsh skills [show NAME|check] [--json]     Agent Skills (SKILL.md folders)
  xcsh run AGENT [ASSIGNMENT...]             run a task (assignment from args or stdin)
  xcsh run --resume SESSION [FOLLOW-UP]      continue a task's conversation
  xcsh run --background AGENT ASSIGNMENT...  start a run detached; prints its id
  xcsh -p [FLAGS] [PROMPT]                   as 'claude -p': Claude Code's headless flags and output
  xcsh tasks [--json]                        background runs and their status
  xcsh wait ID [--json]                      wait for a background run; print its result
  xcsh cancel ID                             end a background run and its processes
  xcsh logs ID [--json] [-f]                 a session's (or run's) transcript
  xcsh worktrees [rm ID | prune] [--json]    worktrees kept by isolated tasks
  xcsh mcp                                   MCP stdio server with a 'task' tool
  xcsh a2a [--port N]                        serve every agent over A2A (HTTP, bearer token)
  xcsh doctor [--json]                       folders searched, which exist, plugins, models
  xcsh trust [DIR] | --list | --revoke [DIR] let a project's config set providers and servers
  xcsh --help | --version

Agents are Markdown files with YAML frontmatter, found in .xcsh, .claude,
.codex and .gemini folders (nearest project folder first, then the user's),
Claude plugins, and the agents built into xcsh.

Warnings about agent files are summed up in one line; --verbose (or
XCSH_VERBOSE=1) prints them all, 'xcsh agents check' lists them.

Exit codes: 0 success, 1 a task or check failed, 2 usage or guard error.
Run 'xcsh COMMAND --help' for a command's flags.
`;

export const AGENTS_HELP = `Usage:
  xcsh agents [--all] [--json] [--cwd DIR]
  xcsh agents show NAME [--json] [--cwd DIR]
  xcsh agents check [PATH...] [--json] [--cwd DIR]

  --all       also list agents hidden by a higher-precedence agent of the same name
  --json      machine-readable output (documented in docs/discovery.md)
  --verbose   print every warning about agent files (default: one summary line;
              'agents check' always prints them all)
  --cwd DIR   discover as if run from DIR (default: the current directory)
`;
