// A small VTT client on openapi-fetch and the `paths` generated from openapi/openapi.json
// by openapi-typescript (build/ts/schema.d.ts). tests/clients/check.sh type-checks it
// (`tsc --noEmit`, strict) and runs it against the served app:
//
//   node build/ts-out/vtt.js http://127.0.0.1:8000
//
// It resolves a Bullseye check, then plays the Bullseye guide's whole conflict (dice rolled
// at the table, so every number is known): each participant submits with their own token
// in the `X-Conflict-Token` header (its security scheme), the winners make the final check,
// a player reads the conflict, the GM deletes it. Then an OpenD6 roll read through its
// faces, an OpenD6 scene played with the GM's and a player's tokens, and a Self/Conflict
// check: every answer field used plainly, as `tsc --strict` allows only when the schema
// marks it required, and a refusal's extension members read off its typed error.
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

/** The problem document of an error answer with `status`, in its operation's own problem
 * schema (`Problem`, or one adding the extension members its refusals carry); throws otherwise. */
function refused<D, E extends Schemas["Problem"]>(label: string, answer: Answer<D, E>, status: number): E {
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
// Its data is `RoundAnswer | SubmissionAccepted`; their required `kind` ("round" / "submission")
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

/** "Rolling Dice": devices 4D+2 doubled by a Fate Point (D6), every die from the table. */
async function openD6Roll(): Promise<void> {
  const roll = ok(
    "opend6 roll",
    await api.POST("/v1/opend6/rolls", {
      body: {
        base: { type: "skill", code: "4D+2" },
        fate_point: true,
        faces: { regular: [3, 4, 5, 2, 6, 1, 3], wild: [6, 2] },
        difficulty: { kind: "number", value: 30 },
      },
    }),
    200,
  );
  // `faces` is null only when nothing is rolled (an automatic success); its members never.
  const { faces } = roll;
  assert(faces !== null, "dice were rolled");
  const regular = faces.regular.reduce((sum, face) => sum + face, 0);
  const wild = faces.wild.reduce((sum, face) => sum + face, 0);
  assert(roll.rolled_code === "8D+4" && regular === 24 && wild === 8, "8D+4: 24 + 8 + 4");
  assert(roll.total === regular + wild + roll.pips && roll.outcome === "success", "36 against 30");
  assert(roll.dice.filter((die) => die.role === "regular").length === 7, "seven regular dice");
}

/** A scene's token in its own header (the `sceneTokenHeader` security scheme). */
function sceneHeader(value: string): Record<string, string> {
  return { "X-Scene-Token": value };
}

type SceneMove =
  paths["/v1/opend6/scenes/{scene_id}/moves"]["post"]["requestBody"]["content"]["application/json"];

async function move(token: string, id: string, body: SceneMove, status = 200) {
  const answer = await api.POST("/v1/opend6/scenes/{scene_id}/moves", {
    params: { path: { scene_id: id } }, headers: sceneHeader(token), body,
  });
  return ok(`scene ${body.type}`, answer, status);
}

/** An ambush at the table's dice: the GM's and Ana's tokens, each for its own moves. */
async function scene(): Promise<void> {
  const created = ok(
    "create scene",
    await api.POST("/v1/opend6/scenes", {
      body: {
        name: "Ambush at the ford",
        rules: { initiative: "rolled_per_round", dice_source: "client" },
        players: [{ id: "ana", name: "Ana" }],
        participants: [
          { id: "ana-pc", name: "Ana the scout", controller: "ana", acumen: "3D", agility: "3D+1" },
          { id: "goblins", name: "Goblin band", members: 3, acumen: "2D", agility: "2D+2" },
        ],
      },
    }),
    201,
  );
  const { id } = created;
  const gm = created.tokens.gm;
  const ana = created.tokens.players["ana"];
  assert(ana !== undefined, "a token for Ana");
  assert(created.phase === "initiative" && created.rules.initiative === "rolled_per_round", "rules");
  assert(created.participants.every((p) => p.participant.action_allotment === 1), "allotment 1");

  // "Initiative": each controller rolls for its own participants; Ana cannot roll the GM's.
  const mine = await move(ana, id, {
    type: "initiative", round: 1, rolls: [{ participant: "ana-pc", faces: { regular: [4, 4], wild: [5] } }],
  });
  assert(mine.scene.phase === "initiative" && mine.scene.waiting_for.join() === "gm", "waits for the GM");
  refused(
    "ana rolls the goblins' initiative",
    await api.POST("/v1/opend6/scenes/{scene_id}/moves", {
      params: { path: { scene_id: id } }, headers: sceneHeader(ana),
      body: { type: "initiative", round: 1, rolls: [{ participant: "goblins", faces: { regular: [2], wild: [3] } }] },
    }),
    403,
  );
  const ordered = await move(gm, id, {
    type: "initiative", round: 1, rolls: [{ participant: "goblins", faces: { regular: [2], wild: [3] } }],
  });
  const order = ordered.scene.order.map((place) => `${place.participant}:${place.total}`);
  assert(order.join() === "ana-pc:13,goblins:5" && ordered.scene.current === "ana-pc", "Ana first");

  // Her attack waits for the GM's judgement (D18); only the GM may resolve it.
  await move(ana, id, { type: "declare", round: 1, participant: "ana-pc", actions: 1 });
  const attack = await move(ana, id, {
    type: "roll", round: 1, participant: "ana-pc",
    spec: { base: { type: "skill", code: "4D" }, kind: "attack", faces: { regular: [6, 5, 3], wild: [2] } },
  });
  const [pending] = attack.scene.pending;
  assert(pending !== undefined && pending.roll.faces?.regular.length === 3, "three regular dice pending");
  assert(pending.roll.total === 16 && pending.move.kind === "attack", "4D: 6 + 5 + 3 + 2");
  refused(
    "ana resolves her own roll",
    await api.POST("/v1/opend6/scenes/{scene_id}/moves", {
      params: { path: { scene_id: id } }, headers: sceneHeader(ana),
      body: { type: "resolve", round: 1, roll: pending.id },
    }),
    403,
  );
  const judged = await move(gm, id, {
    type: "resolve", round: 1, roll: pending.id, difficulty: { kind: "standard", level: "moderate" },
  });
  const result = judged.result.result;
  assert(result !== null && result.outcome === "success" && result.result_points === 1, "16 beats 15");
  assert(result.damage_bonus === 1, "a successful attack: damage bonus ceil(1 / 5)");

  // The last end_turn of the round starts round 2 by itself (initiative again).
  await move(ana, id, { type: "end_turn", round: 1, participant: "ana-pc" });
  const next = await move(gm, id, { type: "end_turn", round: 1, participant: "goblins" });
  assert(next.scene.round === 2 && next.scene.phase === "initiative", "round 2 began by itself");
  assert(next.scene.elapsed_seconds === 5, "5 s of game time");

  const read = ok(
    "ana reads the scene",
    await api.GET("/v1/opend6/scenes/{scene_id}", {
      params: { path: { scene_id: id } }, headers: sceneHeader(ana),
    }),
    200,
  );
  assert(read.round === 2 && read.version === 8, "version 8 after seven moves");
  const deleted = await api.DELETE("/v1/opend6/scenes/{scene_id}", {
    params: { path: { scene_id: id } }, headers: sceneHeader(gm),
  });
  assert(deleted.response.status === 204, "deleted");
  console.log("  ok  delete scene: 204");
}

/** "Task resolution": Fairly dangerous(4), the GM's +1, a karma point, the table's dice. */
async function selfConflict(): Promise<void> {
  const checked = ok(
    "self/conflict check",
    await api.POST("/v1/self-conflict/checks", {
      body: {
        talent: { name: "dangerous", level: 4 },
        conflict_modifiers: [{ label: "slippery deck", value: 1 }],
        karma: { balance: 2, modifier: -1 },
        faces: [3, 3, 6],
      },
    }),
    200,
  );
  assert(checked.total === 12 && checked.outcome === "total_success", "12, a total success");
  assert(checked.karma.balance_after === 1 && checked.talent.written === "Fairly dangerous(4)", "karma");
  assert(checked.dice.map((die) => die.role).join() === "self,conflict,conflict_reroll", "dice roles");

  // One face where a check takes two or more: `missing` and `roles` are typed members of
  // the operation's problem (`SelfConflictCheckProblem`), read without a cast.
  const short = refused(
    "self/conflict check short of faces",
    await api.POST("/v1/self-conflict/checks", { body: { talent: { level: 4 }, faces: [3] } }),
    422,
  );
  assert(short.missing === 1 && short.roles?.join() === "conflict", "one more face: the Conflict die");
}

try {
  await check();
  await conflict();
  await openD6Roll();
  await scene();
  await selfConflict();
  console.log("typescript client: a check, a conflict, an OpenD6 roll and scene, a Self/Conflict check passed");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
