import type { ErrorObject } from 'ajv';
import { fail, ok, toolError, type Result } from '../toolError';
import type { ToolDefinition } from './toolDefinition';
// Precompiled by `npm run sync:manifest`: a short-lived hook process neither loads Ajv nor compiles a schema.
import { inputValidators } from './inputValidators.generated';

/** `/edits/0/search` → `edits[0].search`, the way a model names a field. */
function fieldName(error: ErrorObject): string {
  const parts = error.instancePath.split('/').filter(Boolean);
  if (error.keyword === 'required') parts.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') parts.push(String(error.params.additionalProperty));
  return parts.reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '') || '(input)';
}

function describe(error: ErrorObject, field: string): string {
  switch (error.keyword) {
    case 'required':
      return `'${field}' is required`;
    case 'additionalProperties':
      return `'${field}' is not an argument of this tool`;
    default:
      return `'${field}' ${error.message ?? 'is invalid'}`;
  }
}

/** Checks a call's input against its tool's JSON schema; the error names the first bad field. */
export function validateInput(definition: ToolDefinition, input: unknown): Result<Record<string, unknown>> {
  const validate = inputValidators[definition.name];
  // A tool without a generated validator is a build bug, not the agent's mistake: HOOK_ERROR ("the governor
  // could not complete the call"), and refuse rather than let unchecked input in.
  if (!validate) {
    const message = `${definition.name}: the governor has no input validator for this tool (a build bug; npm run sync:manifest regenerates it), so the call was refused. Tell the user; retrying will not help.`;
    return fail(toolError('HOOK_ERROR', message, { tool: definition.name }));
  }
  if (validate(input)) return ok(input as Record<string, unknown>);
  const error = validate.errors?.[0];
  const field = error ? fieldName(error) : '(input)';
  const what = error ? describe(error, field) : 'input is invalid';
  return fail(toolError('INVALID_INPUT', `${definition.name}: ${what}. Fix the argument and call again.`, { field, tool: definition.name }));
}
