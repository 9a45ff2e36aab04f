// A small VTT client on openapi-fetch and the `paths` generated from openapi/openapi.json
// by openapi-typescript (build/ts/schema.d.ts). tests/clients/check.sh type-checks it
// (`tsc --noEmit`, strict) and runs it against the served app:
//
//   node build/ts-out/vtt.js http://127.0.0.1:8000
//
// It resolves a check, then plays the README's whole conflict (dice rolled at the table,
// so every number is known): each participant submits with their own token in the
// `X-Conflict-Token` header (its security scheme), the winners make the final check, a player reads
// the conflict, the GM deletes it.
import createClient from "openapi-fetch";
import type { components, paths } from "./build/ts/schema.js";

type Schemas = components["schemas"];
type Quality = Schemas["Quality"];

// Node's globals without @types/node: only what this file uses.
declare const process: { argv: string[]; exitCode?: number };

const api = createClient<paths>({ baseUrl: process.argv[2] ?? "http://127.0.0.1:8000" });

const DUELIST: Quality = { name: "Duelist", type: "experiential", magnitude: 7 };
const NIMBLE: Quality = { name: "Nimble", type: "intrinsic", magnitude: 4 };
const GIANT: Quality = { name: "Giant", type: "intrinsic", magnitude: 8 };
const WAR_AXE: Quality = { name: "War axe", type: "material", magnitude: 3 };

interface Answer<D, E> {
  data?: D;
  error?: E;
  response: Response;
}

/** The body of a success answer with `status`; throws otherwise. */
function ok<D, E>(label: string, answer: Answer<D, E>, status: number): D {
  if (answer.response.status !== status || answer.data === undefined) {
    throw new Error(`${label}: expected ${status}, got ${answer.response.status} ${JSON.stringify(answer.error)}`);
  }
  console.log(`  ok  ${label}: ${status}`);
  return answer.data;
}

/** The problem document of an error answer with `status`; throws otherwise. */
function refused<D>(label: string, answer: Answer<D, Schemas["Problem"]>, status: number): Schemas["Problem"] {
  if (answer.response.status !== status || answer.error === undefined) {
    throw new Error(`${label}: expected problem ${status}, got ${answer.response.status}`);
  }
  console.log(`  ok  ${label}: ${status} ${answer.error.type}`);
  return answer.error;
}

function assert(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`assertion failed: ${what}`);
}

async function check(): Promise<void> {
  const result = ok(
    "check",
    await api.POST("/v1/checks", {
      body: {
        target: 15,
        qualities: [
          { name: "Duelling academy graduate", type: "experiential", magnitude: 4 },
          { name: "Cat-quick reflexes", type: "intrinsic", magnitude: 3 },
        ],
        situational: [{ label: "Rolling deck", magnitude: -1 }],
        depletable: [{ name: "health", current: 30, maximum: 42 }],
        depletion: { actor: { threat: 5, depletion_modifier: -2 }, opposition: { threat: 10 } },
        roll: { faces: [11] },
      },
    }),
    200,
  );
  // Health 30 of 42 is below three-quarters: impairment -2 (§3.2.3).
  assert(result.yield === 15 && result.outcome === "stalemate", "check yield 15, stalemate");
  assert(result.modifiers.at(-1)?.source === "impairment", "impairment applies");

  const problem = refused(
    "check refused (quick10 with depletion)",
    await api.POST("/v1/checks", { body: { target: 10, quick10: true, depletion: {} } }),
    422,
  );
  assert(
    problem.errors.some((error) => error.code === "quick10-with-depletion"),
    "errors[].code names the rule",
  );
}

type Submission = Schemas["SubmitCheck"];

function roll(participant: string, face: number, ...qualities: Quality[]): Submission {
  return { participant, qualities, roll: { faces: [face] } };
}

/** One participant's check with that participant's token: 202 while the round waits, 200 at the last. */
// Its data is `Round | SubmissionAccepted`; their required `kind` ("round" / "submission")
// tells them apart.
async function submit(token: string, id: string, round: number, body: Submission) {
  const answer = await api.POST("/v1/conflicts/{conflict_id}/rounds/{number}/checks", {
    params: { path: { conflict_id: id, number: round } }, headers: tokenHeader(token),
    body,
  });
  return ok(`round ${round} ${body.participant}`, answer, answer.response.status === 202 ? 202 : 200);
}

/** A conflict's token in its own header (the `conflictTokenHeader` security scheme). */
function tokenHeader(value: string): Record<string, string> {
  return { "X-Conflict-Token": value };
}

async function conflict(): Promise<void> {
  const created = ok(
    "create conflict",
    await api.POST("/v1/conflicts", {
      body: {
        name: "Bridge of Knives",
        depletable_at_issue: "health",
        dice_source: "client",
        players: [
          { id: "ana", name: "Ana", threat: 5, bullseyes: 1, qualities: [DUELIST, NIMBLE] },
          { id: "bo", name: "Bo", depletion_modifier: -2, qualities: [GIANT, WAR_AXE] },
        ],
        opposition: { name: "Bandit crew", threat: 3 },
      },
    }),
    201,
  );
  assert(created.scores.players === 22 && created.scores.opposition === 44, "scores 22/44 (§4.2)");
  const { id } = created;
  const gm = created.tokens.gm;
  const ana = created.tokens.players["ana"];
  const bo = created.tokens.players["bo"];
  assert(ana !== undefined && bo !== undefined, "a token per player");

  // A player's token may submit only for that player: 403, a problem document.
  refused(
    "ana submits for gm",
    await api.POST("/v1/conflicts/{conflict_id}/rounds/{number}/checks", {
      params: { path: { conflict_id: id, number: 1 } }, headers: tokenHeader(ana),
      body: roll("gm", 10),
    }),
    403,
  );

  // Round 1: SubmissionAccepted (202) while the round waits, the Round (200) at the last check.
  const waiting = await submit(ana, id, 1, roll("ana", 15, DUELIST));
  assert(waiting.kind === "submission" && waiting.waiting_for.join() === "gm,bo", "waiting for gm, bo");
  await submit(bo, id, 1, roll("bo", 14, GIANT));
  const first = await submit(gm, id, 1, roll("gm", 10));
  assert(first.kind === "round" && !first.decided, "round 1 resolved, not decided");
  assert(first.scores_after.players === 22 && first.scores_after.opposition === 15, "round 1 scores");

  // Round 2 decides it: the opposition falls to -29.
  await submit(ana, id, 2, roll("ana", 18, DUELIST));
  await submit(bo, id, 2, roll("bo", 12, GIANT));
  const second = await submit(gm, id, 2, roll("gm", 3));
  assert(second.kind === "round" && second.decided && second.winner === "players", "players win");
  assert(second.scores_after.opposition === -29, "opposition at -29");

  // §4.4: of the players' candidates Bo checks (9 + Giant 8 + score 22 = 39 against 20).
  const outcome = ok(
    "outcome",
    await api.POST("/v1/conflicts/{conflict_id}/outcome", {
      params: { path: { conflict_id: id } }, headers: tokenHeader(gm),
      body: {
        target: 20,
        checks: {
          ana: { qualities: [DUELIST], roll: { faces: [12] } },
          bo: { qualities: [GIANT], roll: { faces: [9] } },
        },
      },
    }),
    200,
  );
  assert(outcome.yield === 39 && outcome.spread === 19 && outcome.outcome === "success", "Bo succeeds by 19");
  assert(outcome.by === "bo", "the outcome check says Bo made it");

  // A player reads it; its ETag sent back as If-None-Match answers 304 with no body.
  const read = await api.GET("/v1/conflicts/{conflict_id}", {
    params: { path: { conflict_id: id } }, headers: tokenHeader(bo),
  });
  const view = ok("read conflict", read, 200);
  assert(view.status === "decided" && view.winner === "players" && view.rounds.length === 2, "decided");
  const etag = read.response.headers.get("ETag");
  assert(etag === `"${view.version}"`, "ETag is the version");
  const again = await api.GET("/v1/conflicts/{conflict_id}", {
    params: { path: { conflict_id: id }, header: { "If-None-Match": etag } }, headers: tokenHeader(bo),
  });
  assert(again.response.status === 304, "304 when unchanged");
  console.log("  ok  read conflict again: 304");

  const deleted = await api.DELETE("/v1/conflicts/{conflict_id}", {
    params: { path: { conflict_id: id } }, headers: tokenHeader(gm),
  });
  assert(deleted.response.status === 204, "deleted");
  console.log("  ok  delete conflict: 204");
  refused(
    "read deleted conflict",
    await api.GET("/v1/conflicts/{conflict_id}", {
      params: { path: { conflict_id: id } }, headers: tokenHeader(gm),
    }),
    404,
  );
}

try {
  await check();
  await conflict();
  console.log("typescript client: a check and a whole conflict passed");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
