// Roll receipts checked by another JOSE implementation: `jose` (npm) verifies a signed
// Bullseye check against the service's published JWK Set, and `canonicalize` (RFC 8785)
// recomputes the request and answer digests, as docs/verifiable-rolls.md shows a client
// doing offline. tests/clients/check.sh type-checks it (tsc strict) and runs it:
//
//   node build/ts-out/receipts.js http://127.0.0.1:8000
import canonicalize from "canonicalize";
import createClient from "openapi-fetch";
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from "jose";
import type { components, paths } from "./build/ts/schema.js";

type Schemas = components["schemas"];

declare const process: { argv: string[]; exitCode?: number };

const api = createClient<paths>({ baseUrl: process.argv[2] ?? "http://127.0.0.1:8000" });

function assert(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`assertion failed: ${what}`);
}

/** SHA-256 of the RFC 8785 form of `value`, in lower-case hex. */
async function digest(value: unknown): Promise<string> {
  const text = canonicalize(value);
  assert(text !== undefined, "a JSON value");
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(hash)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

interface Payload {
  ruleset: string;
  operation: string;
  id: string;
  time: string;
  request_sha256: string;
  faces: number[];
  answer_sha256: string;
  dice_source: "server" | "table";
}

async function main(): Promise<void> {
  const request: Schemas["CheckRequest"] = {
    target: 12,
    dice: "3d6",
    qualities: [{ name: "Swordplay", type: "core", magnitude: 3 }],
    receipt: true,
  };
  const { data: answer } = await api.POST("/v1/checks", { body: request });
  const { data: jwks } = await api.GET("/.well-known/jwks.json");
  assert(answer !== undefined && jwks !== undefined, "a check and the JWK Set");
  assert(typeof answer.receipt === "string", "the answer carries a receipt");

  const keys = createLocalJWKSet(jwks as JSONWebKeySet);
  const { payload, protectedHeader } = await compactVerify(answer.receipt, keys, {
    algorithms: ["EdDSA"],
  });
  const signed = JSON.parse(new TextDecoder().decode(payload)) as Payload;
  const { receipt, ...unsigned } = answer;
  assert(protectedHeader.kid === jwks.keys[0]?.kid, "signed by the first published key");
  assert(signed.request_sha256 === (await digest(request)), "the request digest");
  assert(signed.answer_sha256 === (await digest(unsigned)), "the answer digest");
  assert(JSON.stringify(signed.faces) === JSON.stringify(answer.faces), "the faces, in order");
  assert(signed.dice_source === "server" && signed.id === answer.id, "server dice, this answer");
  console.log(`  ok  receipt verified with jose: kid ${protectedHeader.kid}, faces ${signed.faces}`);

  // One byte changed in the answer, or in the signed faces, and the receipt no longer holds.
  const tampered = { ...unsigned, die_result: unsigned.die_result + 1 };
  assert(signed.answer_sha256 !== (await digest(tampered)), "a changed answer fails");
  const [header, body, signature] = receipt.split(".");
  const forged = JSON.stringify({ ...signed, faces: signed.faces.map((face) => face + 1) });
  const forgedBody = btoa(forged).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  assert(body !== forgedBody, "the forged payload differs");
  const rejected = await compactVerify(`${header}.${forgedBody}.${signature}`, keys, {
    algorithms: ["EdDSA"],
  }).then(
    () => false,
    () => true,
  );
  assert(rejected, "changed faces fail the signature");
  console.log("  ok  a changed answer or changed faces fail verification");

  const { data: verdict } = await api.POST("/v1/receipts/verify", {
    body: { receipt, answer: { ...answer }, request: { ...request } },
  });
  assert(verdict?.valid === true && verdict.checked.length === 3, "the service's verifier agrees");
  console.log("  ok  POST /v1/receipts/verify: valid, signature, answer and request checked");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
