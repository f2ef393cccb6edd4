// mvdan-sh ships GopherJS output without typings; only the surface we use is declared.
declare module 'mvdan-sh' {
  export interface ShNode {
    Pos(): { Offset(): number; Line(): number; Col(): number };
    End(): { Offset(): number };
    [key: string]: any;
  }
  export interface ShParser {
    Parse(src: string, name: string): ShNode;
  }
  export const syntax: {
    NewParser(...options: unknown[]): ShParser;
    Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
    NodeType(node: ShNode): string;
    LangBash: unknown;
    Variant(lang: unknown): unknown;
  };
}
