"""Lobby control without Discord: the host frees a seat (a player's or a
bot's) and changes the lobby's seats, options and clock before the start;
the lobby's options read as words in both languages."""

from __future__ import annotations

import typing
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import i18n
from bot import lobby_control
from bot.i18n import game_text
from bot.lobby_options import (
    TEXT_PREFIX,
    literal_values,
    option_key,
    readable_options,
    value_key,
)
from bot.service import HostError, HostService, UserRef
from bot.store import Store
from engine import GAMES
from tests.bot.textcheck import problems

ALICE = UserRef(1, "Alice", "en-US")
BOB = UserRef(2, "Bob", "fr")
CHLOE = UserRef(3, "Chloé", "fr")
CHAN = 100


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[HostService]:
    store = await Store.open(tmp_path / "g.db")
    svc = HostService(store, seed_source=lambda: 4242)
    await svc.resume()
    yield svc
    await store.close()


async def _refused(key: str, call: typing.Awaitable[object]) -> HostError:
    with pytest.raises(HostError) as err:
        await call
    assert err.value.key == key, (err.value.key, err.value.params)
    return err.value


async def _battalia(svc: HostService, seats: int = 4, options: str = "") -> None:
    await svc.create_lobby(
        guild_id=9, channel_id=CHAN, host=ALICE, game_id="battalia", seats=seats, options=options
    )


# ---- option names ------------------------------------------------------------------


def test_every_option_of_every_game_has_its_name_and_values_in_both_languages() -> None:
    """Each language's own catalogue (no fallback to English) names every
    option of every game and every word an option takes; keys are distinct."""
    assert set(TEXT_PREFIX) == set(GAMES)
    seen: set[str] = set()
    for game_id, game in GAMES.items():
        for name in game.info.options_model.model_fields:
            keys = [option_key(game_id, name)]
            keys += [value_key(game_id, name, v) for v in literal_values(game, name)]
            for key in keys:
                assert key not in seen, key
                seen.add(key)
                for lang in ("en", "fr"):
                    text = i18n.catalogue(lang).get(key)
                    assert text, f"{lang}: {key} ({game_id} option {name})"
                    assert ":" not in text, (lang, key, text)  # "Name: value" reads once
                    assert not problems(text, lang), (lang, key, text, problems(text, lang))


def _non_default_values(game_id: str) -> dict[str, object]:
    """One value other than the default for every option where one is easy
    to find (yes/no, words, numbers): what a lobby could show."""
    game = GAMES[game_id]
    model = game.info.options_model
    defaults = model()
    out: dict[str, object] = {}
    for name in model.model_fields:
        default = getattr(defaults, name)
        words = literal_values(game, name)
        if isinstance(default, bool):
            candidates: list[object] = [not default]
        elif isinstance(default, tuple) and words:
            candidates = [",".join(words[:2])]
        elif words:
            candidates = [w for w in words if w != default]
        elif isinstance(default, int) or default is None:
            base = default or 0
            candidates = [base + 1, base + 2, base - 1, 5, 20]
        else:
            candidates = []
        for value in candidates:
            try:
                game.options({name: value})
            except Exception:
                continue
            out[name] = value
            break
    return out


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_lobby_reads_each_option_changed_in_words(game_id: str) -> None:
    """Every option set away from its default reads "Name: value" in both
    languages, with no raw key, no English in French, the right colons."""
    values = _non_default_values(game_id)
    assert len(values) >= len(GAMES[game_id].info.options_model.model_fields) // 2
    for name, value in values.items():
        options = GAMES[game_id].options({name: value})
        for lang in ("en", "fr"):
            text = readable_options(lang, game_id, options)
            assert text != readable_options(lang, game_id, ""), (name, value)
            assert "·" not in text  # one option: one part
            assert f"`{name}`" not in text  # named, not shown by its key
            assert not problems(text, lang), (lang, name, value, text, problems(text, lang))


def test_readable_options_in_english_and_french() -> None:
    assert readable_options("en", "battalia", "buff=false horde_cap=20") == (
        "Buff: off · Horde cap: 20"
    )
    assert readable_options("fr", "battalia", "buff=false horde_cap=20") == (
        "Buff : non · Plafond de la horde : 20"
    )
    assert readable_options("en-US", "battalia", "") == "Standard rules"
    assert readable_options("fr", "liber", "") == "Règles standard"
    # a word, and a list of words (the characters by seat)
    assert readable_options("en", "between-battle", "between_rule=inclusive") == (
        "Between the tops: bounds included"
    )
    assert readable_options("fr", "between-battle", "characters=pirate,cowboy") == (
        "Personnages : Pirate et Cow-boy"
    )
    # free values (unit ids) read as code
    text = readable_options("fr", "belle-position", "light_cavalry_units=dragons")
    assert text == "Unités de cavalerie légère : `dragons`"


# ---- kick ---------------------------------------------------------------------------


async def test_the_host_frees_a_player_seat_and_a_bot_seat(service: HostService) -> None:
    await _battalia(service)
    await service.join(CHAN, BOB)
    await service.add_bot(CHAN, ALICE, "easy")
    await service.add_bot(CHAN, ALICE, "normal")
    lobby = await service.lobby_in(CHAN)
    assert lobby is not None and lobby.players == (1, 2, -1, -2)
    # what /lobby kick offers: every seat but the host's, by number and name
    assert lobby_control.seat_choices(service, lobby) == [
        (2, 2, "Bob"),
        (3, -1, "Bot 1 (★)"),
        (4, -2, "Bot 2 (★★)"),
    ]
    kicked = await lobby_control.kick(service, CHAN, ALICE, str(BOB.id))
    assert (kicked.user_id, kicked.name, kicked.seat) == (2, "Bob", 2)
    assert kicked.lobby.players == (1, -1, -2)
    # a bot seat, named by its seat number as typed
    kicked = await lobby_control.kick(service, CHAN, ALICE, "2")
    assert (kicked.user_id, kicked.name) == (-1, "Bot 1 (★)")
    assert kicked.lobby.players == (1, -2) and kicked.lobby.bots == ((-2, "normal"),)
    # the freed bot number is taken again, without clashing with Bot 2
    lobby = await service.add_bot(CHAN, ALICE, "hard")
    assert lobby.players == (1, -2, -1)
    assert service.display_name(-1, lobby) == "Bot 1 (★★★)"
    # Bob may sit again; the match starts with who is seated
    await service.join(CHAN, BOB)
    live = await service.start(CHAN, ALICE)
    assert [uid for uid, _ in live.players] == [1, -2, -1, 2]
    assert live.bot_levels == {1: "normal", 2: "hard"}


async def test_kick_refusals(service: HostService) -> None:
    await _refused("no-lobby", lobby_control.kick(service, CHAN, ALICE, "2"))
    await _battalia(service)
    await service.join(CHAN, BOB)
    await service.join(CHAN, CHLOE)
    # only the host; not the host's own seat; only a seated one
    await _refused("not-host", lobby_control.kick(service, CHAN, BOB, str(CHLOE.id)))
    await _refused("lobby-kick-self", lobby_control.kick(service, CHAN, ALICE, "Alice"))
    await _refused("lobby-kick-self", lobby_control.kick(service, CHAN, ALICE, "1"))
    err = await _refused("lobby-kick-unknown", lobby_control.kick(service, CHAN, ALICE, "Zoé"))
    assert err.params == {"seat": "Zoé"}
    await _refused("lobby-kick-unknown", lobby_control.kick(service, CHAN, ALICE, "9"))
    lobby = await service.lobby_in(CHAN)
    assert lobby is not None and lobby.players == (1, 2, 3)  # nothing changed
    # by name, case ignored
    kicked = await lobby_control.kick(service, CHAN, ALICE, "chloé")
    assert kicked.user_id == CHLOE.id
    # after the start: the match has started
    await service.start(CHAN, ALICE)
    await _refused("lobby-started-already", lobby_control.kick(service, CHAN, ALICE, "2"))


# ---- change -----------------------------------------------------------------------------


async def test_the_host_changes_options_seats_and_clock(service: HostService) -> None:
    await _battalia(service, seats=4, options="buff=false")
    await service.join(CHAN, BOB)
    # options given are laid over the lobby's: the others stay
    change = await lobby_control.change(service, CHAN, ALICE, options="horde_cap=20")
    assert change.after.options == "buff=false horde_cap=20"
    assert change.options_changed and not change.seats_changed and not change.clock_changed
    assert lobby_control.change_lines("en", change) == ["Options: Buff: off · Horde cap: 20"]
    assert lobby_control.change_lines("fr", change) == [
        "Options : Buff : non · Plafond de la horde : 20"
    ]
    # an option given its default value is no longer listed
    change = await lobby_control.change(service, CHAN, ALICE, options="buff=true", seats=2)
    assert (change.after.options, change.after.seats) == ("horde_cap=20", 2)
    change = await lobby_control.change(service, CHAN, ALICE, clock="fast")
    assert change.after.clock == "fast"
    assert lobby_control.change_lines("fr", change) == ["Pendule : rapide"]
    # back to the standard rules, with one option
    change = await lobby_control.change(service, CHAN, ALICE, standard=True, options="retreat=0")
    assert change.after.options == "retreat=false"
    assert lobby_control.change_lines("en", change) == ["Options: Retreat: off"]
    change = await lobby_control.change(service, CHAN, ALICE, standard=True)
    assert lobby_control.change_lines("en", change) == ["Options: Standard rules"]
    # the match starts with the lobby as changed
    await lobby_control.change(service, CHAN, ALICE, options="week_limit=3")
    live = await service.start(CHAN, ALICE)
    assert live.match.options.week_limit == 3  # type: ignore[attr-defined]
    assert live.match.options.buff is True  # type: ignore[attr-defined]
    assert live.clock == "fast" and live.match.seats == 2


async def test_change_refusals_change_nothing(service: HostService) -> None:
    await _refused("no-lobby", lobby_control.change(service, CHAN, ALICE, seats=2))
    await _battalia(service, seats=4, options="buff=false")
    await service.join(CHAN, BOB)
    await service.add_bot(CHAN, ALICE)
    before = await service.lobby_in(CHAN)
    await _refused("not-host", lobby_control.change(service, CHAN, BOB, options="buff=true"))
    await _refused("lobby-change-nothing", lobby_control.change(service, CHAN, ALICE))
    await _refused("lobby-unchanged", lobby_control.change(service, CHAN, ALICE, seats=4))
    await _refused("lobby-unchanged", lobby_control.change(service, CHAN, ALICE, options="buff=0"))
    err = await _refused("bad-seats", lobby_control.change(service, CHAN, ALICE, seats=7))
    assert err.params["min"] == 2 and err.params["max"] == 4
    err = await _refused("lobby-seats-taken", lobby_control.change(service, CHAN, ALICE, seats=2))
    assert err.params == {"count": 3, "seats": 2}
    await _refused("bad-clock", lobby_control.change(service, CHAN, ALICE, clock="blitz"))
    # options refused in words, as at /lobby create
    err = await _refused(
        "bad-options", lobby_control.change(service, CHAN, ALICE, options="horde_cap=-1")
    )
    assert err.rules is not None and "horde_cap" in game_text("en", err.rules.msg)
    err = await _refused("bad-options", lobby_control.change(service, CHAN, ALICE, options="x=1"))
    assert err.rules is not None and "buff" in game_text("fr", err.rules.msg)
    await _refused("bad-options", lobby_control.change(service, CHAN, ALICE, options="buff"))
    assert await service.lobby_in(CHAN) == before
    await service.start(CHAN, ALICE)
    await _refused(
        "lobby-started-already", lobby_control.change(service, CHAN, ALICE, options="buff=1")
    )


async def test_liber_decks_stay_valid_or_the_change_is_refused(service: HostService) -> None:
    from engine.games.liber.data import card_file

    ready = [d.id for d in card_file().decks]
    await service.create_lobby(
        guild_id=9, channel_id=CHAN, host=ALICE, game_id="liber", seats=2, deck=ready[1]
    )
    await service.join(CHAN, BOB, deck=ready[0])
    # a deck the options name that does not exist is refused with the deck's reason
    err = await _refused(
        "bad-options", lobby_control.change(service, CHAN, ALICE, options="decks=nowhere")
    )
    assert err.rules is not None and "nowhere" in game_text("en", err.rules.msg)
    # a change of other options keeps the seats' chosen decks
    change = await lobby_control.change(service, CHAN, ALICE, options="hand_limit=5")
    assert change.after.decks == change.before.decks
    live = await service.start(CHAN, ALICE)
    options = live.match.options
    assert options.hand_limit == 5  # type: ignore[attr-defined]
    codes = service.decks.seat_codes("liber", (1, 2), {}, (ready[1], ready[0]))
    assert options.decks == codes  # type: ignore[attr-defined]
