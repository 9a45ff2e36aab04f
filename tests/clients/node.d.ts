// The one Node module answers.ts uses, declared here rather than pulling @types/node in.
declare module "node:fs" {
  export function readFileSync(path: string, encoding: "utf8"): string;
}
