// mvdan-sh ships GopherJS output without typings; only the surface we use is declared.
// GopherJS hands out a fresh JS wrapper on every field access, so node identity (===) is meaningless.
declare module 'mvdan-sh' {
  export interface ShPos {
    Offset(): number; // bytes, not UTF-16 units
    Line(): number;
    Col(): number;
  }
  export interface ShNode {
    Pos(): ShPos;
    End(): ShPos;
    [key: string]: any;
  }
  /** What Parse throws: a Go error with position, message and whether more input would have fixed it. */
  export interface ShParseError {
    Error(): string;
    Text: string;
    Incomplete: boolean;
  }
  export interface ShParser {
    Parse(src: string, name: string): ShNode;
  }
  export const syntax: {
    NewParser(...options: unknown[]): ShParser;
    Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
    NodeType(node: ShNode): string;
    DebugPrint(node: ShNode): void;
    LangBash: unknown;
    LangPOSIX: unknown;
    Variant(lang: unknown): unknown;
  };
}
