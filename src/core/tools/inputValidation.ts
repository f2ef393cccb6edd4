import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { fail, ok, toolError, type Result } from '../toolError';
import type { ToolDefinition } from './toolDefinition';

// Our schemas are static and checked against the meta-schema by a unit test; skipping that and the code
// optimiser at run time keeps a short-lived hook process fast.
const ajv = new Ajv({ allErrors: false, strict: true, validateSchema: false, code: { optimize: false } });
const compiled = new Map<string, ValidateFunction>();

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
  let validate = compiled.get(definition.name);
  if (!validate) {
    validate = ajv.compile(definition.inputSchema);
    compiled.set(definition.name, validate);
  }
  if (validate(input)) return ok(input as Record<string, unknown>);
  const error = validate.errors?.[0];
  const field = error ? fieldName(error) : '(input)';
  const what = error ? describe(error, field) : 'input is invalid';
  return fail(toolError('INVALID_INPUT', `${definition.name}: ${what}. Fix the argument and call again.`, { field, tool: definition.name }));
}
