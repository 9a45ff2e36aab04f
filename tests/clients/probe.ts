// What openapi-typescript (the pinned version) types as present, held to the tool itself:
// tests/clients/check.sh generates build/probe/schema.d.ts from probe/defaults.json and
// tsc compiles this file. answers.ts and present_keys.py rely on exactly this rule: a
// member is typed present (not optional) when it is required or has a `default`, so an
// answer must carry both; a member with neither is optional (`?:`).
import type { components } from "./build/probe/schema.js";

type Thing = components["schemas"]["Thing"];
type Optional<T, K extends keyof T> = {} extends Pick<T, K> ? true : false;

false satisfies Optional<Thing, "required">;
true satisfies Optional<Thing, "optional">;
true satisfies Optional<Thing, "optionalNullable">;
false satisfies Optional<Thing, "optionalWithDefault">;
false satisfies Optional<Thing, "optionalWithNullDefault">;
