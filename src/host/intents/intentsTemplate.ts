/**
 * What `Intent Governor: Open Intents File` writes when there is no file yet: valid and empty (so nothing is
 * refused as invalid), with a commented example that documents every field in place.
 */
export const INTENTS_TEMPLATE = `# Intent Governor: the plan agents work against.
# An agent binds its session to one intent (select_active_intent) before it may change anything,
# and may write only inside that intent's owned_scope. Only IN_PROGRESS intents allow writes.
#
# active_intents:
#   - id: auth-refactor              # unique; agents bind to it with select_active_intent
#     name: Move sessions to the new token store
#     status: IN_PROGRESS            # PLANNED | IN_PROGRESS | BLOCKED | DONE | ABANDONED
#     owner: alice                   # optional
#     approval: every-change         # optional: every-change | destructive-only (default: the intentGovernor.approval setting)
#     owned_scope:                   # workspace-relative globs this intent may write
#       - src/auth/**
#       - test/auth/**
#     constraints:                   # optional, shown to the agent
#       - Keep the public login() signature stable
#     acceptance_criteria:           # optional, shown to the agent
#       - All auth tests pass
#     related: []                    # optional ids of related intents
active_intents: []
`;
