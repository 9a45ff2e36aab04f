"""Provably fair sessions (docs/verifiable-rolls.md, "Provably fair sessions"): the
``hmac-sha256-v1`` derivation against vectors worked out by hand from the algorithm, the
client seeds added after the commitment (in order, once each, until closed), and the
engine's seam (``sessions.dice``) that numbers the rolls, closes the seeds, holds a roll
while awaited seeds are missing and reveals the seed."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import msgspec
import pytest

from service.kernel.errors import RulesError
from service.kernel.events import Event
from service.kernel.fairness import (
    ALGORITHM,
    ClientSeed,
    FairDice,
    Fairness,
    commitment_of,
    new_fairness,
    session_fairness,
    with_client_seed,
    with_seed_revealed,
)
from service.kernel.sessions import Applied
from service.kernel.values import Value
from service.sessions.dice import ClientSeedsAwaited, SessionDice, revealed_closing

SEED = bytes(range(32))  # 00 01 02 … 1f
# HMAC-SHA256(SEED, b"1:0:ana:gm-7"), worked out once and pinned here.
B0 = "5a30e09a2270d3cf56cd04690134671611e02541527a6c372b32d7866c4b9e71"
B1 = "3b1eb13151ba09286c0aa65e84f09f6bf0388a6babc84899d883a61e4d2c63bb"


def test_the_commitment_is_the_sha256_of_the_raw_seed_bytes() -> None:
    assert commitment_of(SEED) == (
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    )


def test_a_die_reads_block_words_big_endian_modulo_its_faces() -> None:
    # B0's words: 0x5a30e09a = 1513152666 → 1513152666 mod 6 = 0 → 1; 0x2270d3cf =
    # 577819599 → 3 → 4; … every one below 2^32 − (2^32 mod 6) = 4294967292.
    dice = FairDice(SEED, ["ana", "gm-7"], 1)
    assert [dice.randint(1, 6) for _ in range(8)] == [1, 4, 2, 5, 2, 2, 5, 2]
    # The ninth word is B1's first: 0x3b1eb131 = 991867185 → mod 20 = 5 → 6.
    assert dice.randint(1, 20) == 991867185 % 20 + 1 == 6
    assert B0[:8] == "5a30e09a"
    assert B1[:8] == "3b1eb131"


def test_a_word_past_the_last_whole_multiple_of_the_range_is_rejected() -> None:
    # Roll 2 without client seeds: HMAC(SEED, b"2:0:") = c8c64f05 86e249d7 28529702 …
    # For 0..2^31 (r = 2^31 + 1) the limit is 2^31 + 1: 3368439557 and 2263501271 are
    # past it, so the die is the third word, 676501250.
    dice = FairDice(SEED, [], 2)
    assert dice.randint(0, 2**31) == 676501250
    # A range of one still takes a word (one number per face, whatever the range).
    again = FairDice(SEED, [], 2)
    assert again.randint(5, 5) == 5
    assert again.drawn


def test_the_roll_number_and_every_client_seed_change_the_stream() -> None:
    def faces(client_seeds: list[str], number: int) -> list[int]:
        dice = FairDice(SEED, client_seeds, number)
        return [dice.randint(1, 1000) for _ in range(4)]

    first = faces(["ana"], 1)
    assert first != faces(["ana"], 2)
    assert first != faces(["anb"], 1)
    assert first != faces(["ana", "x"], 1)


def test_unused_dice_have_drawn_nothing() -> None:
    assert not FairDice(SEED, [], 1).drawn


def test_a_new_fairness_commits_before_any_client_seed_and_shows_no_seed() -> None:
    fairness = new_fairness(random.Random(5))
    expected = random.Random(5).randint(0, 2**256 - 1).to_bytes(32, "big")
    assert fairness.secret == expected.hex()
    assert fairness.commitment == hashlib.sha256(expected).hexdigest()
    view = fairness.view()
    assert view.algorithm == ALGORITHM == "hmac-sha256-v1"
    assert view.server_seed is None
    assert view.client_seeds == ()
    assert (view.seeds_closed, view.awaiting_seeds) == (False, ())
    assert fairness.secret not in msgspec.json.encode(view).decode()


def test_client_seeds_are_kept_in_the_order_added_one_a_participant() -> None:
    """Each participant adds one seed; the dice join them in the order they came."""
    fairness = with_client_seed(
        with_client_seed(new_fairness(random.Random(5)), "bo", "b"), "gm", "g"
    )
    assert fairness.client_seeds == (
        ClientSeed(participant="bo", seed="b"),
        ClientSeed(participant="gm", seed="g"),
    )
    with pytest.raises(RulesError) as caught:
        with_client_seed(fairness, "bo", "again")
    assert caught.value.code == "client-seed-already-given"
    face = fairness.dice().randint(1, 1000)
    assert face == FairDice(bytes.fromhex(fairness.secret), ["b", "g"], 1).randint(1, 1000)


@pytest.mark.parametrize(
    "closed",
    [{"seeds_closed": True}, {"rolls": 1}, {"revealed": True}],
    ids=["closed-by-a-roll", "stored-by-the-previous-release-after-a-roll", "ended"],
)
def test_no_seed_is_added_once_the_seeds_are_closed(closed: dict[str, Any]) -> None:
    """A roll (or the end) closes the seeds; a session stored by the previous release has
    no ``seeds_closed``, but its rolls close it all the same."""
    fairness = msgspec.structs.replace(new_fairness(random.Random(5)), **closed)
    assert fairness.view().seeds_closed
    with pytest.raises(RulesError) as caught:
        with_client_seed(fairness, "ana", "late")
    assert caught.value.code == "client-seeds-closed"


def test_a_fairness_stored_by_the_previous_release_still_decodes() -> None:
    """The new fields have defaults: an earlier release's stored fairness decodes."""
    earlier = {
        "algorithm": ALGORITHM,
        "commitment": commitment_of(SEED),
        "client_seeds": [{"participant": "ana", "seed": "a"}],
        "rolls": 0,
        "secret": SEED.hex(),
        "revealed": False,
    }
    fairness = msgspec.msgpack.decode(msgspec.msgpack.encode(earlier), type=Fairness)
    assert (fairness.seeds_closed, fairness.awaited) == (False, ())
    assert fairness.view().awaiting_seeds == ()


def _fairness(
    *,
    server_dice: bool,
    client_seeds: dict[str, str] | None = None,
    await_client_seeds: bool = False,
    receipts: bool = False,
    participants: tuple[str, ...] = (),
) -> Fairness | None:
    return session_fairness(
        random.Random(1),
        server_dice=server_dice,
        client_seeds=client_seeds,
        await_client_seeds=await_client_seeds,
        receipts=receipts,
        participants=participants,
    )


def _refusal(**asked: Any) -> RulesError:
    with pytest.raises(RulesError) as caught:
        _fairness(**asked)
    return caught.value


def test_the_creation_takes_no_client_seed_and_seeds_need_server_dice() -> None:
    """The server commits first: any seed at creation is `client-seeds-at-creation`; none
    (or `{}`) is a commitment with no seed. Without server dice, seeds and waiting for them
    are refused at their members."""
    refused = _refusal(server_dice=True, client_seeds={"ana": "a"}, participants=("gm", "ana"))
    assert refused.code == "client-seeds-at-creation"
    assert [c.pointer for c in refused.concerns] == ["/client_seeds"]
    for none in (None, {}):
        fairness = _fairness(server_dice=True, client_seeds=none, participants=("gm", "ana"))
        assert fairness is not None
        assert (fairness.client_seeds, fairness.awaited) == ((), ())
    refused = _refusal(
        server_dice=False, client_seeds={"ana": "a"}, await_client_seeds=True, participants=("ana",)
    )
    assert refused.code == "client-seeds-without-server-dice"
    assert [c.pointer for c in refused.concerns] == ["/client_seeds", "/await_client_seeds"]
    assert _fairness(server_dice=False) is None


def test_awaiting_client_seeds_names_every_participant_until_each_adds_one() -> None:
    fairness = _fairness(server_dice=True, await_client_seeds=True, participants=("gm", "ana"))
    assert fairness is not None
    assert fairness.view().awaiting_seeds == ("gm", "ana")
    fairness = with_client_seed(fairness, "ana", "a")
    assert fairness.view().awaiting_seeds == ("gm",)
    assert with_client_seed(fairness, "gm", "g").view().awaiting_seeds == ()


def test_receipts_need_server_dice_and_every_refusal_comes_at_once() -> None:
    """What only server dice give — client seeds and receipts — refused together, each at
    its member; with server dice receipts are no concern of the fairness."""
    refused = _refusal(server_dice=False, client_seeds={}, receipts=True)
    assert refused.code == "receipts-without-server-dice"
    assert [(c.code, c.pointer) for c in refused.concerns] == [
        ("receipts-without-server-dice", "/receipts")
    ]
    refused = _refusal(
        server_dice=False, client_seeds={"ana": "a"}, receipts=True, participants=("ana",)
    )
    assert [(c.code, c.pointer) for c in refused.concerns] == [
        ("client-seeds-without-server-dice", "/client_seeds"),
        ("receipts-without-server-dice", "/receipts"),
    ]
    assert _fairness(server_dice=True, receipts=True) is not None


class Table(Value, frozen=True, kw_only=True):
    over: bool = False
    faces: tuple[int, ...] = ()
    fairness: Fairness | None = None


class Ended(Event, frozen=True, kw_only=True, tag="table.ended"):
    server_seed: str | None = None


class Rolled(Event, frozen=True, kw_only=True, tag="table.rolled"):
    face: int


def _over(table: Table) -> bool:
    return table.over


def _table() -> Table:
    fairness = Fairness(commitment=commitment_of(SEED), secret=SEED.hex(), rolls=4)
    return Table(fairness=fairness)


def test_an_action_that_draws_uses_up_the_next_roll_number() -> None:
    table = _table()
    dice = SessionDice(random.Random(0), table, _over)
    face = dice.randint(1, 6)
    assert face == FairDice(SEED, [], 5).randint(1, 6)
    applied = dice.settle(Applied(Table(faces=(face,), fairness=table.fairness)))
    assert applied.state.fairness is not None
    assert applied.state.fairness.rolls == 5
    # Settling again (the engine does, after the step) changes nothing.
    assert dice.settle(applied).state == applied.state


def test_an_action_that_draws_nothing_takes_no_number() -> None:
    table = _table()
    dice = SessionDice(random.Random(0), table, _over)
    applied = dice.settle(Applied(table))
    assert applied.state.fairness is not None
    assert applied.state.fairness.rolls == 4


def test_a_retry_on_a_fresher_state_draws_that_states_number() -> None:
    # The engine runs a step again on the state another writer stored meanwhile: the
    # attempt's dice are that state's, so the stored count goes up by one, not two.
    stale = _table()
    SessionDice(random.Random(0), stale, _over).randint(1, 6)  # the attempt that lost
    assert stale.fairness is not None
    fresh = Table(fairness=msgspec.structs.replace(stale.fairness, rolls=5))
    dice = SessionDice(random.Random(0), fresh, _over)
    face = dice.randint(1, 6)
    assert face == FairDice(SEED, [], 6).randint(1, 6)
    settled = dice.settle(Applied(fresh))
    assert settled.state.fairness is not None
    assert settled.state.fairness.rolls == 6


def test_the_seed_is_revealed_when_the_action_ends_the_session() -> None:
    table = _table()
    dice = SessionDice(random.Random(0), table, _over)
    applied = dice.settle(
        Applied(
            Table(over=True, fairness=table.fairness), (Rolled(face=dice.randint(1, 6)), Ended())
        )
    )
    assert applied.state.fairness is not None
    assert applied.state.fairness.view().server_seed == SEED.hex()
    rolled, ended = applied.events
    assert rolled == Rolled(face=rolled.face)  # only an ending event carries the seed
    assert ended == Ended(server_seed=SEED.hex())


def test_before_the_end_nothing_carries_the_seed() -> None:
    table = _table()
    applied = SessionDice(random.Random(0), table, _over).settle(Applied(table, (Ended(),)))
    assert applied.state.fairness is not None
    assert applied.state.fairness.view().server_seed is None
    assert applied.events == (Ended(),)


def test_a_deleted_sessions_closing_event_carries_its_seed() -> None:
    assert revealed_closing(_table(), Ended()) == Ended(server_seed=SEED.hex())
    assert revealed_closing(Table(), Ended()) == Ended()  # table dice: nothing to reveal
    assert with_seed_revealed(Rolled(face=3), _table().fairness) == Rolled(face=3)  # type: ignore[arg-type]


def test_the_first_draw_closes_the_seeds_and_a_step_that_draws_none_leaves_them_open() -> None:
    table = Table(fairness=Fairness(commitment=commitment_of(SEED), secret=SEED.hex()))
    idle = SessionDice(random.Random(0), table, _over).settle(Applied(table))
    assert idle.state.fairness is not None
    assert not idle.state.fairness.seeds_closed
    dice = SessionDice(random.Random(0), table, _over)
    dice.randint(1, 6)
    rolled = dice.settle(Applied(table))
    assert rolled.state.fairness is not None
    assert (rolled.state.fairness.seeds_closed, rolled.state.fairness.rolls) == (True, 1)


def test_settling_keeps_the_seed_a_step_added() -> None:
    """The client-seed step changes the state's fairness; settling (twice) keeps it."""
    table = Table(fairness=Fairness(commitment=commitment_of(SEED), secret=SEED.hex()))
    assert table.fairness is not None
    dice = SessionDice(random.Random(0), table, _over)
    added = Table(fairness=with_client_seed(table.fairness, "ana", "a"))
    settled = dice.settle(dice.settle(Applied(added)))
    assert settled.state == added


def test_awaited_seeds_make_the_dice_refuse_before_drawing_anything() -> None:
    """`await_client_seeds`: a face asked while seeds are missing raises (not a rules
    error, which rules may absorb); the engine answers it 409 `client-seeds-awaited`,
    naming who is missing. Once all are in, the same dice roll."""
    fairness = new_fairness(random.Random(5), awaited=("gm", "ana"))
    fairness = with_client_seed(fairness, "gm", "g")
    dice = SessionDice(random.Random(0), Table(fairness=fairness), _over)
    with pytest.raises(ClientSeedsAwaited) as caught:
        dice.randint(1, 6)
    assert not isinstance(caught.value, RulesError)
    assert caught.value.missing == ("ana",)
    refusal = caught.value.refusal()
    assert (refusal.code, dict(refusal.extensions)) == (
        "client-seeds-awaited",
        {"awaiting": ["ana"]},
    )
    assert dice.settle(Applied(Table(fairness=fairness))).state.fairness == fairness  # drew none
    ready = Table(fairness=with_client_seed(fairness, "ana", "a"))
    assert SessionDice(random.Random(0), ready, _over).randint(1, 6) in range(1, 7)


def test_without_fairness_the_server_dice_roll() -> None:
    dice = SessionDice(random.Random(9), Table(), _over)
    server = random.Random(9)
    assert [dice.randint(1, 6) for _ in range(3)] == [server.randint(1, 6) for _ in range(3)]
    assert dice.settle(Applied(Table(over=True))).state == Table(over=True)
