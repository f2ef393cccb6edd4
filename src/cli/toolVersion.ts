import packageJson from '../../package.json';

/** This build's version, recorded as `tool.version` in every trace record the CLI writes. */
export const TOOL_VERSION: string = packageJson.version;
