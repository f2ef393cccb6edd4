// A named import, so the bundler inlines the version alone rather than the whole manifest.
import { version } from '../../package.json';

/** This build's version, recorded as `tool.version` in every trace record the CLI writes. */
export const TOOL_VERSION: string = version;
